import SharedDomain

/// Events the view model reacts to, named for what happened.
public enum CheckInViewModelInput: Equatable, Sendable {
    /// The clock reached a tick (a second, a window boundary, or the clock was set).
    case timerTicked
    /// Someone shook: SIGUSR1 or `qrcheckin shake`. Honoured only when shake mode is on.
    case shakeRequested
    /// An operator set shake mode.
    case shakeModeSet(ShakeMode)
    /// An operator flipped shake mode.
    case shakeModeToggled
    /// An operator set refresh mode.
    case refreshModeSet(RefreshMode)
    /// An operator asked for a new code now (`refresh now`).
    case refreshRequested
    /// The outputs could not be written; the reason names the file and the error.
    case outputFailed(reason: String)
    /// The outputs were written again.
    case outputSucceeded
    /// The daemon's state (settings and issue record) could not be saved; the reason says why.
    /// Codes pause (fail closed) until an operator resumes them once it can be saved.
    case stateNotSaved(reason: String)
    /// The daemon's state was saved again.
    case stateSaved
    /// The daemon is stopping.
    case stopRequested
    /// The clock's synchronisation was read; `required` is the `require-clock-sync` setting.
    case clockChecked(ClockSync, required: Bool)
}

/// Why a code was issued (a metrics label and a log decision).
public enum RotationCause: String, CaseIterable, Equatable, Sendable {
    /// A new window began (or codes resumed after a pause, or the daemon started).
    case window
    /// A shake (SIGUSR1 or `qrcheckin shake`).
    case shake
    /// `ctl refresh now`.
    case refreshNow = "refresh-now"
    /// A reload changed how codes are made (venue, period, base URL or secret).
    case reload
}

/// What the view model tells its owner: things to do or log that are not the state itself.
public enum CheckInNotice: Equatable, Sendable {
    /// A shake arrived while shake mode is off.
    case shakeIgnored
    /// The operator settings changed: save them.
    case settingsChanged(OperatorSettings)
    /// A code was issued.
    case issued(CheckInCode, cause: RotationCause)
}
