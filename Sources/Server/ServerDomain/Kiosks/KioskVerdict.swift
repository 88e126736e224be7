import SharedDomain

/// What the server concludes about one kiosk at a moment (`KioskJudge`): its light, its
/// problems in words, and the readings they come from.
public struct KioskVerdict: Sendable, Equatable {
    /// Whether its reports arrive.
    public let state: KioskState
    /// What its latest report shows is wrong, in a fixed order (the most urgent first).
    public let problems: [KioskProblem]
    /// Its clock against the server's, from its latest report.
    public let clock: ClockReading
    /// The window the server's clock was in when the report arrived, by the venue's period:
    /// the window the kiosk should have shown (nil when the server does not serve the venue).
    public let expectedWindow: Int64?
    /// Whole seconds since its latest report arrived.
    public let silenceSeconds: Int64

    /// A verdict.
    public init(state: KioskState, problems: [KioskProblem], clock: ClockReading, expectedWindow: Int64?, silenceSeconds: Int64) {
        self.state = state
        self.problems = problems
        self.clock = clock
        self.expectedWindow = expectedWindow
        self.silenceSeconds = silenceSeconds
    }

    /// Whether nothing is wrong: reporting on time, and no problem.
    public var isHealthy: Bool { state == .ok && problems.isEmpty }
}
