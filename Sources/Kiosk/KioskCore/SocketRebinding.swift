import SharedDomain

/// When the daemon binds its control socket again after its file went away: at the next tick
/// the first time (someone cleaned up, or `rm -rf` took the output directory), then with
/// pauses that double from 1 s up to 30 s while it keeps disappearing or rebinding keeps
/// failing. Someone who removes the socket over and over thus gets a few tries a minute at
/// whatever a rebind does, not one a second; a socket that stayed up a minute starts afresh.
public struct SocketRebinding: Equatable, Sendable {
    /// How long a rebound socket must stay before its next removal counts as a first one again.
    public static let steadyMilliseconds: Int64 = 60_000
    /// The longest pause between two attempts.
    public static let longestPauseMilliseconds: Int64 = 30_000

    /// Whether the socket is closed and waits to be bound again.
    public private(set) var isDown = false
    /// Attempts since the socket last stayed up steadily.
    public private(set) var attempts = 0
    /// The earliest time of the next attempt (nil while the socket is up).
    public private(set) var nextAttempt: WallTime?
    private var lastRebound: WallTime?

    /// Nothing happened yet: the socket is up.
    public init() {}

    /// The socket's file is gone at `now`; true when it was up until now (close it).
    public mutating func gone(at now: WallTime) -> Bool {
        guard !isDown else { return false }
        isDown = true
        if let last = lastRebound, now.milliseconds - last.milliseconds >= Self.steadyMilliseconds { attempts = 0 }
        nextAttempt = WallTime(milliseconds: now.milliseconds + Self.pause(before: attempts + 1))
        return true
    }

    /// Whether an attempt is due at `now`. A wall clock set back far does not hold it off.
    public func isDue(at now: WallTime) -> Bool {
        guard isDown, let next = nextAttempt else { return false }
        return now >= next || next.milliseconds - now.milliseconds > Self.longestPauseMilliseconds
    }

    /// An attempt starts at `now`; the one after it, if needed, waits longer.
    public mutating func attempted(at now: WallTime) {
        attempts += 1
        nextAttempt = WallTime(milliseconds: now.milliseconds + Self.pause(before: attempts + 1))
    }

    /// The socket was bound again at `now`.
    public mutating func rebound(at now: WallTime) {
        isDown = false
        lastRebound = now
        nextAttempt = nil
    }

    /// The pause before attempt `attempt` (1 is the first): none, then 1 s, 2 s, 4 s, … 30 s.
    public static func pause(before attempt: Int) -> Int64 {
        guard attempt > 1 else { return 0 }
        return min(1000 << Int64(min(attempt - 2, 16)), longestPauseMilliseconds)
    }
}
