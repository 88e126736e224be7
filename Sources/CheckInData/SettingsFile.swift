import CheckInDomain
import Glibc

/// Operator settings persisted as `key = value` text in the state directory (`settings`).
/// Replaced atomically, so a crash mid-save leaves the previous settings intact.
public struct SettingsFile: SettingsStore {
    /// The file's path.
    public let path: String

    /// Settings stored at `path`.
    public init(path: String) {
        self.path = path
    }

    public func load() throws(SettingsStoreError) -> OperatorSettings? {
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
        for entry in entries {
            switch entry.key {
            case "shake":
                guard let mode = ShakeMode(rawValue: entry.value) else {
                    throw SettingsStoreError("\(path):\(entry.line): shake must be on or off, got \(Quoted(entry.value))")
                }
                settings.shake = mode
            case "refresh":
                // `pause` is how `ctl refresh pause` spells it; a hand-edited file may too.
                guard let mode = RefreshMode(rawValue: entry.value == "pause" ? "paused" : entry.value) else {
                    throw SettingsStoreError("\(path):\(entry.line): refresh must be auto or paused, got \(Quoted(entry.value))")
                }
                settings.refresh = mode
            default:
                throw SettingsStoreError("\(path):\(entry.line): unknown key \(Quoted(entry.key))")
            }
        }
        return settings
    }

    public func save(_ settings: OperatorSettings) throws(SettingsStoreError) {
        let text = KeyValueFile.render(
            [("shake", settings.shake.rawValue), ("refresh", settings.refresh.rawValue)],
            comment: "qrcheckin operator settings, written by the daemon (qrcheckin ctl changes them)")
        do {
            try AtomicFile.write(text, to: path, mode: 0o640)
        } catch {
            throw SettingsStoreError(error.description)
        }
    }
}
