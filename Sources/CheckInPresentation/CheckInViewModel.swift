import CheckInDomain

/// The seed's QR view model as a daemon's: counts the window down, swaps the code at each
/// boundary, honours shakes and operator settings, and publishes one `CheckInState`.
///
/// Time comes only from the injected `WallClock`: rotations are derived from the wall clock at
/// each input, never by counting ticks, so a late tick cannot drift and a test can run an hour
/// of rotations by moving a test clock. Not thread-safe: one event loop owns it.
public final class CheckInViewModel {
    /// The current state; observers hear every change.
    public private(set) var state: CheckInState

    private var issuer: any CheckInCodeIssuing
    private let clock: any WallClock
    private let store: any SettingsStore
    private var observers: [(CheckInState) -> Void] = []
    private var noticeObservers: [(CheckInNotice) -> Void] = []
    /// The newest (window, sequence) ever issued per venue and period: codes only move forward,
    /// across pauses and across reloads that switch venues back and forth.
    private var issued: [IssuerKey: (window: Int64, sequence: Int)] = [:]
    private struct IssuerKey: Hashable {
        let venue: VenueID
        let periodSeconds: Int
    }
    private var lastIssued: (window: Int64, sequence: Int)? {
        get { issued[IssuerKey(venue: issuer.venue, periodSeconds: issuer.period.seconds)] }
        set { issued[IssuerKey(venue: issuer.venue, periodSeconds: issuer.period.seconds)] = newValue }
    }
    private var outputFailure: String?
    private var pending: [CheckInViewModelInput] = []
    private var dispatching = false

    /// Creates the view model with saved settings (or the defaults) and issues the first code.
    public init(issuer: any CheckInCodeIssuing, clock: any WallClock, store: any SettingsStore,
                settings: OperatorSettings) {
        self.issuer = issuer
        self.clock = clock
        self.store = store
        let now = clock.now()
        state = CheckInState(phase: .paused, settings: settings, health: .ok, secondsLeft: 0, updatedAt: now)
        state = reduce(state, .timerTicked, now: now)
    }

    /// Calls `observer` with the current state now and with every new state (the seed's `bind`).
    public func bind(_ observer: @escaping (CheckInState) -> Void) {
        observers.append(observer)
        observer(state)
    }

    /// Calls `observer` with every notice.
    public func bindNotices(_ observer: @escaping (CheckInNotice) -> Void) {
        noticeObservers.append(observer)
    }

    /// Handles an input. Inputs sent by observers while a state is being published are queued
    /// and handled after it, in order.
    public func send(_ input: CheckInViewModelInput) {
        pending.append(input)
        guard !dispatching else { return }
        dispatching = true
        defer { dispatching = false }
        while !pending.isEmpty {
            let next = pending.removeFirst()
            let updated = reduce(state, next, now: clock.now())
            guard updated != state else { continue }
            if updated.settings != state.settings { persist(updated.settings) }
            state = updated
            for observer in observers { observer(state) }
        }
    }

    /// Switches to a new issuer (a reloaded configuration) and shows a code from it at once.
    /// Sequences are counted per venue and period, so no code repeats, even after A → B → A.
    public func replaceIssuer(_ newIssuer: any CheckInCodeIssuing) {
        issuer = newIssuer
        send(.refreshRequested)
    }

    /// When the current window ends: the next rotation is due then.
    public func nextBoundary() -> WallTime {
        let now = clock.now()
        return WallTime(seconds: issuer.period.end(ofWindow: issuer.period.window(at: now.seconds)))
    }

    // MARK: - The state machine

    private func reduce(_ old: CheckInState, _ input: CheckInViewModelInput, now: WallTime) -> CheckInState {
        var state = old
        state.updatedAt = now
        switch input {
        case .timerTicked:
            break
        case .shakeRequested:
            if state.settings.shake == .on {
                return rotate(state, now: now, forced: true)
            }
            notify(.shakeIgnored)
        case .shakeModeSet(let mode):
            state.settings.shake = mode
        case .shakeModeToggled:
            state.settings.shake = state.settings.shake == .on ? .off : .on
        case .refreshModeSet(let mode):
            state.settings.refresh = mode
        case .refreshRequested:
            return rotate(state, now: now, forced: true)
        case .outputFailed(let reason):
            outputFailure = reason
        case .outputSucceeded:
            outputFailure = nil
        case .stopRequested:
            state.phase = .stopped
            state.secondsLeft = 0
            return state
        }
        return rotate(state, now: now, forced: false)
    }

    /// Brings the shown code in line with the clock: a new window gets a new code; a forced
    /// rotation gets the next sequence number in the current window.
    private func rotate(_ old: CheckInState, now: WallTime, forced: Bool) -> CheckInState {
        var state = old
        guard state.phase != .stopped else { return state }
        state.health = outputFailure.map { .degraded(reason: $0) } ?? .ok
        guard state.settings.refresh == .auto else {
            state.phase = .paused
            state.secondsLeft = 0
            return state
        }
        let window = issuer.period.window(at: now.seconds)
        if let last = lastIssued, window < last.window {
            // The wall clock went back: issuing that window again could repeat an old code.
            state.health = .degraded(reason: "the wall clock moved back; waiting until "
                + "\(UTCTime.iso8601(issuer.period.start(ofWindow: last.window + 1))) to issue new codes")
        } else if forced || state.code == nil || state.code!.window != window || lastIssued?.window != window {
            let sequence = lastIssued.map { $0.window == window ? $0.sequence + 1 : 0 } ?? 0
            state.phase = .showing(issuer.code(window: window, sequence: sequence))
            lastIssued = (window, sequence)
        }
        state.secondsLeft = state.code.map { Int(now.secondsUntil($0.expiresAt)) } ?? 0
        return state
    }

    private func persist(_ settings: OperatorSettings) {
        do {
            try store.save(settings)
        } catch {
            notify(.settingsNotSaved(reason: error.message))
        }
    }

    private func notify(_ notice: CheckInNotice) {
        for observer in noticeObservers { observer(notice) }
    }
}
