/// Port: the wall clock (Unix time). Injected everywhere time matters, so tests can move it.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> WallTime
}

/// A moment as milliseconds since the Unix epoch.
public struct WallTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: Int64

    /// Creates a time from milliseconds since the epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Creates a time at a whole second.
    public init(seconds: Int64) {
        self.milliseconds = seconds * 1000
    }

    /// Whole seconds since the epoch, rounded down (also before 1970).
    public var seconds: Int64 {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// Whole seconds from this moment until Unix second `deadline`, rounded up (a countdown
    /// shows 1 until the very end), and 0 once it has passed.
    public func secondsUntil(_ deadline: Int64) -> Int64 {
        (max(0, deadline * 1000 - milliseconds) + 999) / 1000
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public var description: String { "\(seconds).\(String(1000 + milliseconds - seconds * 1000).dropFirst())" }
}
