/// What the server last told other systems about a kiosk (the `kiosk` webhook event): its light
/// and the short names of its problems. A new one is announced only when it differs from the
/// one the ledger holds for the kiosk, so a state is told once, also by several servers of one
/// database looking at the same fleet. Problems are named by `KioskProblem.code` (`clock`, not
/// "clock 41 s fast"): a kiosk whose skew drifts from 41 to 42 s is not news.
public struct KioskAnnouncement: Sendable, Hashable, CustomStringConvertible {
    /// Which kiosk.
    public let key: KioskKey
    /// Whether its reports arrive.
    public let state: KioskState
    /// Its problems' codes, most urgent first (`KioskJudge`'s order).
    public let problems: [String]

    /// An announcement of `state` and `problems` for `key`.
    public init(key: KioskKey, state: KioskState, problems: [String]) {
        self.key = key
        self.state = state
        self.problems = problems
    }

    /// What the judge's `verdict` on the kiosk `key` says.
    public init(key: KioskKey, verdict: KioskVerdict) {
        self.init(key: key, state: verdict.state, problems: verdict.problems.map(\.code))
    }

    /// How the ledger keeps it (`kiosks.announced`) and compares it: `late`, `ok paused clock`.
    public var stored: String { ([state.rawValue] + problems).joined(separator: " ") }

    /// `HALL-1/door-1 late`, for logs.
    public var description: String { "\(key) \(stored)" }
}
