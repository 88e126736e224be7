import KioskCore
import SharedDomain
import SharedQR
import Synchronization

/// A wall clock that moves only when the test says so.
final class TestClock: WallClock, @unchecked Sendable {
    var current: WallTime
    init(seconds: Int64) { current = WallTime(seconds: seconds) }
    func now() -> WallTime { current }
    func advance(milliseconds: Int64) { current = WallTime(milliseconds: current.milliseconds + milliseconds) }
    func set(seconds: Int64) { current = WallTime(seconds: seconds) }
}

/// A clock-sync source the test sets: synchronised (max error 5 ms) unless told otherwise.
final class FakeClockSync: ClockSyncSource, @unchecked Sendable {
    var reading = ClockSync(synchronized: true, maxErrorMicroseconds: 5000)
    /// How often the core asked.
    var reads = 0
    func read() -> ClockSync {
        reads += 1
        return reading
    }
    static let unsynchronized = ClockSync(synchronized: false, maxErrorMicroseconds: 16_000_000)
}

/// An issuer whose codes spell out their venue, window and sequence, so tests can read them.
struct FakeIssuer: CheckInCodeIssuing {
    var venue = VenueID.demo
    let period: RotationPeriod
    func code(window: Int64, sequence: Int) -> CheckInCode {
        CheckInCode(venue: venue, window: window, sequence: sequence, token: "T\(window).\(sequence)",
                    url: "HTTPS://X/C/\(venue.rawValue)/T\(window).\(sequence)", safeNumber: "12현34규",
                    issuedAt: period.start(ofWindow: window), expiresAt: period.end(ofWindow: window))
    }
}

/// Makes fake issuers for a code source.
struct FakeIssuers: CodeIssuerMaking {
    func issuer(for source: CodeSource) -> any CheckInCodeIssuing {
        FakeIssuer(venue: source.venue, period: source.period)
    }
}

/// Settings kept in memory; can be told to fail like a full disk.
final class MemoryStore: SettingsStore, @unchecked Sendable {
    var state: SavedState?
    var failing = false
    /// Every state saved, in order.
    var saves: [SavedState] = []
    /// The saved settings.
    var saved: OperatorSettings? { state?.settings }
    func load() throws(SettingsStoreError) -> SavedState? { state }
    func save(_ state: SavedState) throws(SettingsStoreError) {
        if failing { throw SettingsStoreError("cannot write /state/settings: No space left on device") }
        self.state = state
        saves.append(state)
    }
}

/// An output directory in memory: all files of a batch or none, like `DirectorySink`; can be
/// made to refuse batches like a full (or partly full) disk.
final class MemoryDisk: OutputSink {
    var files: [String: [UInt8]] = [:]
    /// Every batch put in place, by names.
    var batches: [[String]] = []
    /// Whether each file was last handed over as one to sync (`OutputContent.durable`).
    var durable: [String: Bool] = [:]
    /// Refuses a batch when this says so (nil: accept everything).
    var refuses: (([OutputContent]) -> Bool)?
    func replaceTogether(_ contents: [OutputContent]) throws(OutputSinkError) {
        if refuses?(contents) == true { throw OutputSinkError("cannot create /out/\(contents[0].name): No space left on device") }
        for content in contents { files[content.name] = content.bytes }
        batches.append(contents.map(\.name))
        for content in contents { durable[content.name] = content.durable }
    }
    /// The parsed current.json.
    var document: StateDocument? { files["current.json"].flatMap { try? StateDocument(parsing: $0) } }
    var text: String? { files["current.txt"].map { String(decoding: $0, as: UTF8.self) } }
}

/// A PNG that is just the matrix size and its first row, enough to tell codes apart.
struct BlankPNG: PNGRendering {
    func png(for matrix: QRMatrix) throws(OutputSinkError) -> [UInt8] { [UInt8(matrix.size)] + (0..<8).map { matrix[0, $0] ? 1 : 0 } }
}

/// A QR "encoder" whose modules follow the text's length, enough to tell codes apart.
struct TinyEncoder: QREncoding {
    func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix {
        QRMatrix(version: 1, size: 21, modules: (0..<441).map { ($0 + text.utf8.reduce(0) { $0 &+ Int($1) }) % 3 == 0 })
    }
}
