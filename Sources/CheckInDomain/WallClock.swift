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

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public var description: String { "\(seconds).\(String(1000 + milliseconds - seconds * 1000).dropFirst())" }
}
