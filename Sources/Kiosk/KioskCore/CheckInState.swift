import SharedDomain

/// Everything a view shows, as one value. Views render it; they never reach back into the model.
public struct CheckInState: Equatable, Sendable {
    /// What is on display.
    public enum Phase: Equatable, Sendable {
        /// A live code.
        case showing(CheckInCode)
        /// Refresh mode is paused: no code is shown.
        case paused
        /// The daemon is shutting down: no code is shown.
        case stopped
        /// `require-clock-sync` holds codes back until the kernel says the clock is
        /// synchronised: no code is shown.
        case waitingForClock
    }

    /// What is on display.
    public var phase: Phase
    /// Shake and refresh modes.
    public var settings: OperatorSettings
    /// Whether outputs are current.
    public var health: Health
    /// Whole seconds until the shown code expires (0 when none is shown).
    public var secondsLeft: Int
    /// When this state was produced.
    public var updatedAt: WallTime
    /// The clock's synchronisation as last read (at start, at each rotation and whenever it
    /// flips): an unsynchronised clock is a warning, not a degraded health.
    public var clock: ClockSync

    /// Creates a state.
    public init(phase: Phase, settings: OperatorSettings, health: Health, secondsLeft: Int, updatedAt: WallTime,
                clock: ClockSync = .unknown) {
        self.phase = phase
        self.clock = clock
        self.settings = settings
        self.health = health
        self.secondsLeft = secondsLeft
        self.updatedAt = updatedAt
    }

    /// The shown code, if any.
    public var code: CheckInCode? {
        if case .showing(let code) = phase { code } else { nil }
    }

    /// The same state without the per-second countdown: what file views re-render on.
    public var withoutCountdown: CheckInState {
        var copy = self
        copy.secondsLeft = 0
        copy.updatedAt = WallTime(milliseconds: 0)
        return copy
    }
}
