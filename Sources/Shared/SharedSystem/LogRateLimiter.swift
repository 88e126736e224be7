import SharedDomain

/// Lets through at most one log line per interval for a kind of event, and counts the rest, so
/// a flood (20,000 refused connections in a second and a half) costs a few lines, not 20,000,
/// while the log still says how many there were. Times are injected (monotonic milliseconds).
public struct LogRateLimiter: Sendable {
    /// Shortest time between two lines, in milliseconds.
    public let intervalMilliseconds: Int64
    /// Events since the last line that were not logged.
    public private(set) var suppressed = 0
    private var lastLine: Int64?

    /// A limiter allowing one line per `intervalMilliseconds`.
    public init(intervalMilliseconds: Int64) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Records an event at `now`. Returns the number of earlier events not logged (0 or more)
    /// when this one should be logged, or nil when it is counted instead.
    public mutating func admit(now: WallTime) -> Int? {
        if let lastLine, now.milliseconds - lastLine < intervalMilliseconds {
            suppressed += 1
            return nil
        }
        return take(now: now)
    }

    /// When counted events wait to be reported: the moment a summary line is due, else nil.
    public var summaryDue: WallTime? {
        guard suppressed > 0, let lastLine else { return nil }
        return WallTime(milliseconds: lastLine + intervalMilliseconds)
    }

    /// The number of counted events to report in a summary line now, or nil when none is due
    /// (nothing counted, or the interval has not passed). Resets the count.
    public mutating func summary(now: WallTime) -> Int? {
        guard let due = summaryDue, now.milliseconds >= due.milliseconds else { return nil }
        return take(now: now)
    }

    private mutating func take(now: WallTime) -> Int {
        let count = suppressed
        suppressed = 0
        lastLine = now.milliseconds
        return count
    }
}
