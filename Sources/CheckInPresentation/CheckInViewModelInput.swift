import CheckInDomain

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
    /// A view could not write its output; the reason names the file and the error.
    case outputFailed(reason: String)
    /// A view wrote its output again.
    case outputSucceeded
    /// The daemon is stopping.
    case stopRequested
}

/// Things worth a log line that do not change the state.
public enum CheckInNotice: Equatable, Sendable {
    /// A shake arrived while shake mode is off.
    case shakeIgnored
    /// Settings changed but could not be saved; the old saved ones are intact.
    case settingsNotSaved(reason: String)
}
