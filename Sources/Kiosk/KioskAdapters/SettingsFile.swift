import Glibc
import KioskCore
import SharedDomain
import SharedSystem

/// The daemon's saved state as `key = value` text in the state directory (`settings`): the
/// operator settings and the issue record (the newest `(window, seq)` per venue and period, and
/// the clock's high-water mark). Replaced atomically and synced, so a crash mid-save leaves the
/// previous state intact and a code is never shown before its record is on disk.
public struct SettingsFile: SettingsStore {
    /// The file's path.
    public let path: String

    /// Settings stored at `path`.
    public init(path: String) {
        self.path = path
    }

    public func load() throws(SettingsStoreError) -> SavedState? {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.read(path, limit: 64 * 1024)
        } catch {
            if error.code == ENOENT { return nil }
            throw SettingsStoreError(error.description)
        }
        let entries: [KeyValueFile.Entry]
        do {
            entries = try KeyValueFile.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw SettingsStoreError("\(path):\(error.line): \(error.message)")
        }
        var settings = OperatorSettings()
        var issued: [IssueRecord.Entry] = []
        var highWater: Int64?
        var floor: Int64?
        var source: ModeSource?
        var changedBy: OperatorName?
        var changedAt: Int64?
        for entry in entries {
            let bad = { (what: String) in SettingsStoreError("\(path):\(entry.line): \(entry.key) must be \(what), got \(Quoted(entry.value))") }
            switch entry.key {
            case "shake":
                guard let mode = ShakeMode(rawValue: entry.value) else { throw bad("on or off") }
                settings.shake = mode
            case "refresh":
                // `pause` is how `ctl refresh pause` spells it; a hand-edited file may too.
                guard let mode = RefreshMode(rawValue: entry.value == "pause" ? "paused" : entry.value) else {
                    throw bad("auto or paused")
                }
                settings.refresh = mode
            case "mode-source":
                guard let value = ModeSource(rawValue: entry.value) else { throw bad("local, console or daemon") }
                source = value
            case "mode-changed-by":
                guard let value = OperatorName(entry.value) else { throw bad("an operator's name") }
                changedBy = value
            case "mode-changed-at":
                guard let value = Int64(entry.value) else { throw bad("a Unix time in seconds") }
                changedAt = value
            case "issued":
                guard let parsed = Self.issued(entry.value) else { throw bad("'VENUE PERIOD WINDOW SEQ'") }
                issued.removeAll { $0.venue == parsed.venue && $0.periodSeconds == parsed.periodSeconds }
                issued.append(parsed)
            case "clock-high-water":
                guard let value = Int64(entry.value) else { throw bad("a Unix time in seconds") }
                highWater = value
            case "issued-floor":
                guard let value = Int64(entry.value) else { throw bad("a Unix time in seconds") }
                floor = value
            default:
                throw SettingsStoreError("\(path):\(entry.line): unknown key \(Quoted(entry.key))")
            }
        }
        if let source {
            guard let changedAt else { throw SettingsStoreError("\(path): mode-source needs mode-changed-at") }
            settings.change = ModeChange(source: source, by: changedBy, at: changedAt)
        }
        return SavedState(settings: settings, issued: IssueRecord(entries: issued, highWater: highWater, floor: floor))
    }

    public func save(_ state: SavedState) throws(SettingsStoreError) {
        do {
            try AtomicFile.write(Self.render(state), to: path, mode: 0o640)
        } catch {
            throw SettingsStoreError(error.description)
        }
    }

    /// The file's text for `state`.
    public static func render(_ state: SavedState) -> String {
        var pairs = [("shake", state.settings.shake.rawValue), ("refresh", state.settings.refresh.rawValue)]
        if let change = state.settings.change {
            pairs.append(("mode-source", change.source.rawValue))
            if let by = change.by { pairs.append(("mode-changed-by", by.rawValue)) }
            pairs.append(("mode-changed-at", String(change.at)))
        }
        for entry in state.issued.entries {
            pairs.append(("issued", "\(entry.venue.rawValue) \(entry.periodSeconds) \(entry.window) \(entry.sequence)"))
        }
        if let highWater = state.issued.highWater { pairs.append(("clock-high-water", String(highWater))) }
        if let floor = state.issued.floor { pairs.append(("issued-floor", String(floor))) }
        return KeyValueFile.render(pairs, comment: "qrcheckin operator settings and the newest codes issued, written by the daemon "
            + "(qrcheckin ctl changes the settings; the rest keeps codes from repeating)")
    }

    /// An `issued` value: `VENUE PERIOD WINDOW SEQ`.
    private static func issued(_ value: String) -> IssueRecord.Entry? {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 4, let venue = try? VenueID(String(fields[0])), let period = Int(fields[1]),
              RotationPeriod.allowedSeconds.contains(period), let window = Int64(fields[2]), let sequence = Int(fields[3]),
              (0...CheckInCodeIssuer.maximumSequence).contains(sequence) else { return nil }
        return IssueRecord.Entry(venue: venue, periodSeconds: period, window: window, sequence: sequence)
    }
}
