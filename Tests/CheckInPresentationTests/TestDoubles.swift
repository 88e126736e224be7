import CheckInDomain
import Synchronization

/// A wall clock that moves only when the test says so.
final class TestClock: WallClock, @unchecked Sendable {
    var current: WallTime
    init(seconds: Int64) { current = WallTime(seconds: seconds) }
    func now() -> WallTime { current }
    func advance(milliseconds: Int64) { current = WallTime(milliseconds: current.milliseconds + milliseconds) }
    func set(seconds: Int64) { current = WallTime(seconds: seconds) }
}

/// An issuer whose codes spell out their window and sequence, so tests can read them.
struct FakeIssuer: CheckInCodeIssuing {
    let venue = VenueID.demo
    let period: RotationPeriod
    func code(window: Int64, sequence: Int) -> CheckInCode {
        CheckInCode(venue: venue, window: window, sequence: sequence, token: "T\(window).\(sequence)",
                    url: "HTTPS://X/C/DEMO/T\(window).\(sequence)", safeNumber: "12현34규",
                    issuedAt: period.start(ofWindow: window), expiresAt: period.end(ofWindow: window))
    }
}

/// Settings kept in memory; can be told to fail like a full disk.
final class MemoryStore: SettingsStore, @unchecked Sendable {
    var saved: OperatorSettings?
    var failing = false
    func load() throws(SettingsStoreError) -> OperatorSettings? { saved }
    func save(_ settings: OperatorSettings) throws(SettingsStoreError) {
        if failing { throw SettingsStoreError("cannot write /state/settings: No space left on device") }
        saved = settings
    }
}
