import SharedDomain

/// When the daemon's one-shot wall-clock timer fires next, and the watchdog ping it carries.
///
/// The plan is the earliest of: the next window boundary; under a systemd watchdog, half its
/// interval after the last ping (`WatchdogSec=` / 2); the next second while something must be
/// retried soon (failing outputs or saves, a clock to wait for); the socket's next rebind
/// attempt while it is down; when removed outputs are written again (the socket, if due, with
/// them); and the once-a-second metrics write counters are waiting for.
/// Nothing wakes the daemon every second otherwise: `STATUS=` names the expiry time instead of
/// counting down. The timer is armed again only when that time changed.
public struct TimerPlan: Equatable, Sendable {
    /// What may wake the daemon, as the core sees it at one moment.
    public struct Wakes: Equatable, Sendable {
        /// The next window boundary (the code's rotation).
        public var boundary: WallTime
        /// The watchdog interval systemd asked for (nil: no watchdog, or no one to ping).
        public var watchdogMilliseconds: Int64?
        /// Whether something failed or waits (outputs, the save, the clock): look again in a second.
        public var retrying: Bool
        /// The control socket's next rebind attempt (nil: the socket is up).
        public var socketRebind: WallTime?
        /// When removed outputs are written again (nil: none wait).
        public var rewrite: WallTime?
        /// When counters waiting for `metrics.prom` may be written (nil: none wait).
        public var metricsWrite: WallTime?

        /// Creates the wakes of one moment.
        public init(boundary: WallTime, watchdogMilliseconds: Int64? = nil, retrying: Bool = false, socketRebind: WallTime? = nil,
                    rewrite: WallTime? = nil, metricsWrite: WallTime? = nil) {
            self.boundary = boundary
            self.watchdogMilliseconds = watchdogMilliseconds
            self.retrying = retrying
            self.socketRebind = socketRebind
            self.rewrite = rewrite
            self.metricsWrite = metricsWrite
        }
    }

    /// When the timer was last armed to fire (nil: it has fired, or was never armed).
    public private(set) var armed: WallTime?
    /// When the watchdog was last pinged (the daemon's start until the first tick).
    public private(set) var lastPing: WallTime?
    /// A tick happened: the watchdog ping goes out with the next notification (after the
    /// tick's write, if it has one).
    public private(set) var pingDue = false

    /// Not armed, nothing pinged.
    public init() {}

    /// The daemon started at `now`: the watchdog's interval counts from there.
    public mutating func started(at now: WallTime) {
        lastPing = now
    }

    /// The timer fired: a one-shot timer is spent (setting the clock cancels it too), and the
    /// tick's ping is due.
    public mutating func fired() {
        armed = nil
        pingDue = true
    }

    /// The loop ends: nothing is armed any more.
    public mutating func disarm() {
        armed = nil
    }

    /// Whether `WATCHDOG=1` goes out with the notification sent at `now` (a ping is due and
    /// there is a watchdog); the due ping is spent either way.
    public mutating func takePing(at now: WallTime, watchdog: Bool) -> Bool {
        defer { pingDue = false }
        guard pingDue && watchdog else { return false }
        lastPing = now
        return true
    }

    /// The earliest of `wakes` after `now`.
    public func next(_ wakes: Wakes, at now: WallTime) -> WallTime {
        var at = wakes.boundary
        if let interval = wakes.watchdogMilliseconds, interval > 0 {
            at = min(at, WallTime(milliseconds: (lastPing ?? now).milliseconds + max(interval / 2, 1)))
        }
        // Waiting for the clock, say: look again every second, so the first code follows the
        // synchronisation at once rather than at the next window boundary.
        let nextSecond = WallTime(seconds: now.seconds + 1)
        if wakes.retrying { at = min(at, nextSecond) }
        // The socket's next rebind attempt, never sooner than the next second.
        if let rebind = wakes.socketRebind { at = min(at, max(rebind, nextSecond)) }
        if let rewrite = wakes.rewrite { at = min(at, rewrite) }
        if let metrics = wakes.metricsWrite { at = min(at, metrics) }
        return at
    }

    /// Arms the timer for the earliest of `wakes` after `now`: the time to arm it at, or nil
    /// when it is armed for that time already.
    public mutating func arm(_ wakes: Wakes, at now: WallTime) -> WallTime? {
        let at = next(wakes, at: now)
        guard at != armed else { return nil }
        armed = at
        return at
    }
}
