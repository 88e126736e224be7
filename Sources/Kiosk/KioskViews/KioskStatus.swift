import KioskCore
import SharedDomain

/// What the kiosk shows, decided from the last document, the clock and the daemon's liveness.
public enum KioskStatus: Equatable, Sendable {
    /// A live code.
    case showing(KioskCode)
    /// Refresh is paused by an operator: no code.
    case paused(shake: ShakeMode)
    /// `require-clock-sync` holds codes back until the clock is synchronised: no code.
    case waitingForClock
    /// A document exists but nobody keeps it current: no code, it could be replayed.
    case stale(StaleReason)
    /// No daemon has published anything, or it stopped cleanly (`stoppedAt`).
    case notRunning(stoppedAt: Int64?)
    /// `current.json` cannot be used; the text says why.
    case unreadable(String)

    /// Why a document is stale.
    public enum StaleReason: Equatable, Sendable {
        /// The code expired more than the grace period ago and no new one came.
        case expired(updatedAt: Int64)
        /// The process that wrote it is gone.
        case daemonGone(pid: Int64)
    }
}

/// The parts of a live code a kiosk shows.
public struct KioskCode: Equatable, Sendable {
    /// The check-in URL in the QR.
    public var url: String
    /// The typeable safe number.
    public var safeNumber: String
    /// Whole seconds until the code expires, rounded up (never negative).
    public var secondsLeft: Int64
    /// Shake mode.
    public var shake: ShakeMode
    /// Why the daemon is degraded, nil when healthy.
    public var warning: String?

    /// Creates a code.
    public init(url: String, safeNumber: String, secondsLeft: Int64, shake: ShakeMode, warning: String?) {
        self.url = url
        self.safeNumber = safeNumber
        self.secondsLeft = secondsLeft
        self.shake = shake
        self.warning = warning
    }
}
