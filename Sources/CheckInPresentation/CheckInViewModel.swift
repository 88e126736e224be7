import CheckInDomain

/// The seed's QR view model as a daemon's: counts the window down, swaps the code at each
/// boundary, honours shakes and operator settings, and publishes one `CheckInState`.
///
/// A value with no clock, store or observers: every input comes with the time it happened and
/// every consequence worth telling (a shake ignored, settings to save, a code issued) comes back
/// as a notice for the caller to act on. Rotations are derived from the time at each input,
/// never by counting ticks, so a late tick cannot drift and a test can run an hour of rotations
/// by passing later times.
public struct CheckInViewModel: Sendable {
    /// The current state.
    public private(set) var state: CheckInState
    /// Where codes come from: the one home of the venue and the period.
    public private(set) var issuer: any CheckInCodeIssuing

    /// The newest (window, sequence) ever issued per venue and period: codes only move forward,
    /// across pauses and across reloads that switch venues back and forth.
    private var issued: [IssuerKey: Issued] = [:]
    private struct IssuerKey: Hashable {
        let venue: VenueID
        let periodSeconds: Int
    }
    private struct Issued {
        let window: Int64
        let sequence: Int
    }
    private var key: IssuerKey { IssuerKey(venue: issuer.venue, periodSeconds: issuer.period.seconds) }
    /// Why outputs cannot be written (from the write effects), if they cannot.
    private var outputFailure: String?
    /// Why no code may be issued now (the wall clock went back), if so.
    private var clockProblem: String?
    /// The newest clock reading; it reaches the state at a rotation or when it flips, so a
    /// maximum error that creeps every second does not rewrite the outputs every second.
    private var clockReading = ClockSync.unknown
    /// `require-clock-sync`: no code until the clock is synchronised.
    private var clockRequired = false

    /// Creates the view model with saved settings (or the defaults) and issues the first code,
    /// unless `clockRequired` holds it back until `clock` is synchronised.
    public init(issuer: any CheckInCodeIssuing, settings: OperatorSettings, now: WallTime,
                clock: ClockSync = .unknown, clockRequired: Bool = false) {
        self.issuer = issuer
        clockReading = clock
        self.clockRequired = clockRequired
        state = CheckInState(phase: .paused, settings: settings, health: .ok, secondsLeft: 0, updatedAt: now, clock: clock)
        _ = send(.timerTicked, at: now)
    }

    /// Handles an input that happened at `now`; returns what the caller should know or do.
    @discardableResult
    public mutating func send(_ input: CheckInViewModelInput, at now: WallTime) -> [CheckInNotice] {
        var notices: [CheckInNotice] = []
        let settings = state.settings
        state.updatedAt = now
        switch input {
        case .timerTicked:
            rotate(now: now, forced: nil, notices: &notices)
        case .shakeRequested:
            if state.settings.shake == .on {
                rotate(now: now, forced: .shake, notices: &notices)
            } else {
                notices.append(.shakeIgnored)
                rotate(now: now, forced: nil, notices: &notices)
            }
        case .shakeModeSet(let mode):
            state.settings.shake = mode
            rotate(now: now, forced: nil, notices: &notices)
        case .shakeModeToggled:
            state.settings.shake = state.settings.shake == .on ? .off : .on
            rotate(now: now, forced: nil, notices: &notices)
        case .refreshModeSet(let mode):
            state.settings.refresh = mode
            rotate(now: now, forced: nil, notices: &notices)
        case .refreshRequested:
            rotate(now: now, forced: .refreshNow, notices: &notices)
        case .outputFailed(let reason):
            outputFailure = reason
            rotate(now: now, forced: nil, notices: &notices)
        case .outputSucceeded:
            outputFailure = nil
            rotate(now: now, forced: nil, notices: &notices)
        case .stopRequested:
            state.phase = .stopped
            state.secondsLeft = 0
        case .clockChecked(let reading, let required):
            clockReading = reading
            clockRequired = required
            if reading.synchronized != state.clock.synchronized { state.clock = reading }
            rotate(now: now, forced: nil, notices: &notices)
        }
        if state.settings != settings { notices.insert(.settingsChanged(state.settings), at: 0) }
        return notices
    }

    /// Switches to a new issuer (a reloaded configuration) and shows a code from it at once.
    /// Sequences are counted per venue and period, so no code repeats, even after A → B → A.
    @discardableResult
    public mutating func replaceIssuer(_ newIssuer: any CheckInCodeIssuing, at now: WallTime) -> [CheckInNotice] {
        issuer = newIssuer
        state.updatedAt = now
        var notices: [CheckInNotice] = []
        rotate(now: now, forced: .reload, notices: &notices)
        return notices
    }

    /// When the window containing `now` ends: the next rotation is due then.
    public func nextBoundary(after now: WallTime) -> WallTime {
        WallTime(seconds: issuer.period.end(ofWindow: issuer.period.window(at: now.seconds)))
    }

    /// The health the outputs themselves would show once written: a file that was written is
    /// current by definition, so only the clock can make it say degraded.
    public var healthOfWrittenOutputs: Health {
        clockProblem.map { .degraded(reason: $0) } ?? .ok
    }

    /// Whether outputs are known to be unwritable.
    public var outputsFailing: Bool { outputFailure != nil }

    // MARK: - The state machine

    /// Brings the shown code in line with the clock: a new window gets a new code; a forced
    /// rotation gets the next sequence number in the current window.
    private mutating func rotate(now: WallTime, forced: RotationCause?, notices: inout [CheckInNotice]) {
        guard state.phase != .stopped else { return }
        clockProblem = nil
        defer { state.health = clockProblem.map { .degraded(reason: $0) } ?? outputFailure.map { .degraded(reason: $0) } ?? .ok }
        guard state.settings.refresh == .auto else {
            state.phase = .paused
            state.secondsLeft = 0
            return
        }
        guard !clockRequired || clockReading.synchronized == true else {
            // A code from a clock nobody vouches for would be rejected at the door: none at all.
            state.phase = .waitingForClock
            state.secondsLeft = 0
            return
        }
        let window = issuer.period.window(at: now.seconds)
        let last = issued[key]
        if let last, window < last.window {
            // The wall clock went back: issuing that window again could repeat an old code.
            clockProblem = "the wall clock moved back; waiting until "
                + "\(UTCTime.iso8601(issuer.period.start(ofWindow: last.window + 1))) to issue new codes"
        } else if forced != nil || state.code == nil || state.code!.window != window || last?.window != window {
            let sequence = last.map { $0.window == window ? $0.sequence + 1 : 0 } ?? 0
            let code = issuer.code(window: window, sequence: sequence)
            state.phase = .showing(code)
            state.clock = clockReading
            issued[key] = Issued(window: window, sequence: sequence)
            notices.append(.issued(code, cause: forced ?? .window))
        }
        state.secondsLeft = state.code.map { Int(now.secondsUntil($0.expiresAt)) } ?? 0
    }
}
