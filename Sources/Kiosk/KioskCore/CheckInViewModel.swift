import SharedDomain
import SharedText

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

    /// The newest (window, sequence) ever issued per venue and period, and the clock's
    /// high-water mark: codes only move forward, across pauses, reloads that switch venues back
    /// and forth, and (saved by the daemon) restarts.
    public private(set) var record: IssueRecord
    /// Why outputs cannot be written (from the write effects), if they cannot.
    private var outputFailure: String?
    /// Why no code may be issued now (the wall clock went back, or the record was lost), if so.
    private var holdReason: String?
    /// Why the daemon's state cannot be saved, if it cannot: codes are paused meanwhile.
    private var stateFailure: String?
    /// The newest clock reading; it reaches the state at a rotation or when it flips, so a
    /// maximum error that creeps every second does not rewrite the outputs every second.
    private var clockReading = ClockSync.unknown
    /// `require-clock-sync`: no code until the clock is synchronised.
    private var clockRequired = false

    /// Creates the view model with saved settings (or the defaults) and the saved issue record,
    /// and issues the first code (after the newest recorded), unless `clockRequired` holds it
    /// back until `clock` is synchronised or the record says the clock is behind.
    public init(issuer: any CheckInCodeIssuing, settings: OperatorSettings, record: IssueRecord = IssueRecord(), now: WallTime,
                clock: ClockSync = .unknown, clockRequired: Bool = false) {
        self.issuer = issuer
        self.record = record
        clockReading = clock
        self.clockRequired = clockRequired
        state = CheckInState(phase: .paused, settings: settings, health: .ok, secondsLeft: 0, updatedAt: now, clock: clock)
        _ = send(.timerTicked, at: now)
    }

    /// Handles an input that happened at `now`, asked for by `actor` (an operator's request on
    /// the control socket names who and where: `ModeChange`); returns what the caller should
    /// know or do.
    @discardableResult
    public mutating func send(_ input: CheckInViewModelInput, at now: WallTime, by actor: ModeActor = .anonymous) -> [CheckInNotice] {
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
            state.settings.change = ModeChange(source: actor.source, by: actor.name, at: now.seconds)
            rotate(now: now, forced: nil, notices: &notices)
        case .shakeModeToggled:
            state.settings.shake = state.settings.shake == .on ? .off : .on
            state.settings.change = ModeChange(source: actor.source, by: actor.name, at: now.seconds)
            rotate(now: now, forced: nil, notices: &notices)
        case .refreshModeSet(let mode):
            // The latest setting wins, wherever it came from: a console's pause of a kiosk paused
            // locally says so from now on.
            state.settings.refresh = mode
            state.settings.change = ModeChange(source: actor.source, by: actor.name, at: now.seconds)
            rotate(now: now, forced: nil, notices: &notices)
        case .refreshRequested:
            rotate(now: now, forced: .refreshNow, notices: &notices)
        case .outputFailed(let reason):
            outputFailure = reason
            rotate(now: now, forced: nil, notices: &notices)
        case .outputSucceeded:
            outputFailure = nil
            rotate(now: now, forced: nil, notices: &notices)
        case .stateNotSaved(let reason):
            // Fail closed: no code may be shown whose record is not on disk, and a pause that
            // did not reach the disk must not end with a restart.
            stateFailure = reason
            if state.settings.refresh != .paused {
                state.settings.change = ModeChange(source: .daemon, by: nil, at: now.seconds)
            }
            state.settings.refresh = .paused
            rotate(now: now, forced: nil, notices: &notices)
        case .stateSaved:
            stateFailure = nil
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
    /// current by definition, so only the clock or the state directory can make it say degraded.
    public var healthOfWrittenOutputs: Health {
        (stateFailure ?? holdReason).map { .degraded(reason: $0) } ?? .ok
    }

    /// Whether outputs are known to be unwritable.
    public var outputsFailing: Bool { outputFailure != nil }

    /// Whether the daemon's state is known to be unsavable.
    public var stateFailing: Bool { stateFailure != nil }

    /// Why no code can be issued now although refresh mode is auto (the clock is behind the
    /// newest code issued, or the record was lost), if so.
    public var holdingCodesBack: String? { holdReason }

    // MARK: - The state machine

    /// Brings the shown code in line with the clock: a new window gets a new code; a forced
    /// rotation gets the next sequence number in the current window.
    private mutating func rotate(now: WallTime, forced: RotationCause?, notices: inout [CheckInNotice]) {
        guard state.phase != .stopped else { return }
        holdReason = nil
        defer {
            state.health = (stateFailure ?? holdReason ?? outputFailure).map { .degraded(reason: $0) } ?? .ok
        }
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
        let period = issuer.period
        let window = period.window(at: now.seconds)
        let last = record.last(venue: issuer.venue, periodSeconds: period.seconds)
        let firstFree = last == nil ? record.firstFreeWindow(period: period) : nil
        if let last, window < last.window {
            // The wall clock went back (now or across a restart): issuing that window again could
            // repeat an old code.
            // With a code on display (the newest), new ones come with the next window; with none
            // (a restart), the newest window's next sequence may be issued as soon as it is back.
            let resume = state.code == nil ? last.window : last.window + 1
            hold("the wall clock moved back; waiting until \(UTCTime.iso8601(period.start(ofWindow: resume))) to issue new codes")
        } else if let firstFree, window < firstFree {
            // What was issued before is not known: a window that started earlier may have been.
            hold("the record of the codes issued was lost; waiting until \(UTCTime.iso8601(period.start(ofWindow: firstFree))) "
                + "to issue new codes")
        } else if forced != nil || state.code == nil || state.code!.window != window || last?.window != window {
            // At the largest sequence a forced refresh re-issues the same code (docs/TOKEN.md).
            let sequence = last.map { $0.window == window ? min($0.sequence + 1, CheckInCodeIssuer.maximumSequence) : 0 } ?? 0
            let code = issuer.code(window: window, sequence: sequence)
            state.phase = .showing(code)
            state.clock = clockReading
            record.record(venue: issuer.venue, periodSeconds: period.seconds, window: window, sequence: sequence, at: now.seconds)
            notices.append(.issued(code, cause: forced ?? .window))
        }
        state.secondsLeft = state.code.map { Int(now.secondsUntil($0.expiresAt)) } ?? 0
    }

    /// No code may be issued now: the code on display stays (it was issued, and is still the
    /// newest), or, with none, the outputs say that codes wait for the clock.
    private mutating func hold(_ reason: String) {
        holdReason = reason
        if state.code == nil { state.phase = .waitingForClock }
    }
}
