import KioskCore
import SharedDomain

/// What happens to the kiosk, as events: the loop turns files, signals and time into these.
public enum KioskInput: Sendable {
    /// `current.json` was read and parsed.
    case documentRead(StateDocument)
    /// There is no `current.json` (or no output directory): nothing has been published.
    case documentMissing
    /// `current.json` exists but cannot be read or parsed; the text says why.
    case documentUnreadable(String)
    /// The wall clock moved (once a second, and after every other event); `daemonAlive` is
    /// whether the process `current.json` names (`KioskViewModel.documentPID`) is alive, as the
    /// loop probed it now (nil: no document to ask about).
    case clockTicked(WallTime, daemonAlive: Bool?)
    /// The terminal has a new size (SIGWINCH).
    case resized(TerminalSize)
}
