/// The server's rule for a report whose MAC is good: its time must lie within `tolerance` of
/// the server's clock, and its nonce must not have been seen within that window (per kiosk, or
/// per venue: the caller keeps one window per scope). Nonces older than the window are
/// forgotten, as their reports would be refused as stale anyway; at most `capacity` are kept
/// (the oldest go first, and a time before the oldest kept is refused as stale).
public struct ReportReplayWindow: Sendable {
    /// What became of a report's time and nonce.
    public enum Verdict: Equatable, Sendable {
        /// Fresh and new: remembered now.
        case admitted
        /// Its time is further than the tolerance from the server's clock (milliseconds off:
        /// positive when the kiosk is ahead).
        case stale(offsetMilliseconds: Int64)
        /// Seen before within the window.
        case replayed
    }

    /// How far a report's time may be from the server's clock: 5 minutes.
    public static let defaultToleranceMilliseconds: Int64 = 300_000

    /// How far a report's time may be from the server's clock, milliseconds.
    public let toleranceMilliseconds: Int64
    /// The most nonces kept.
    public let capacity: Int
    /// Nonces seen, with the report's time.
    private var seen: [ReportNonce: Int64] = [:]
    /// The times of the nonces kept, oldest first (for pruning).
    private var order: [(time: Int64, nonce: ReportNonce)] = []
    /// The newest time ever forgotten for room: reports at or before it cannot be judged new.
    private var floor = Int64.min

    /// A window of `toleranceMilliseconds` either side keeping at most `capacity` nonces.
    public init(toleranceMilliseconds: Int64 = Self.defaultToleranceMilliseconds, capacity: Int = 1024) {
        precondition(capacity > 0 && toleranceMilliseconds >= 0)
        self.toleranceMilliseconds = toleranceMilliseconds
        self.capacity = capacity
    }

    /// Judges a report signed at `time` with `nonce`, received at the server's `now` (both Unix
    /// milliseconds), and remembers it when admitted.
    public mutating func admit(time: Int64, nonce: ReportNonce, now: Int64) -> Verdict {
        let offset = time.subtractingReportingOverflow(now)
        guard !offset.overflow, abs(offset.partialValue) <= toleranceMilliseconds else {
            return .stale(offsetMilliseconds: offset.overflow ? (time > now ? Int64.max : Int64.min) : offset.partialValue)
        }
        forget(before: now - toleranceMilliseconds)
        guard seen[nonce] == nil else { return .replayed }
        guard time > floor else { return .stale(offsetMilliseconds: offset.partialValue) }
        seen[nonce] = time
        let index = order.firstIndex { $0.time > time } ?? order.endIndex
        order.insert((time, nonce), at: index)
        if order.count > capacity {
            let oldest = order.removeFirst()
            seen[oldest.nonce] = nil
            floor = max(floor, oldest.time)
        }
        return .admitted
    }

    private mutating func forget(before limit: Int64) {
        var count = 0
        while count < order.count, order[count].time < limit {
            seen[order[count].nonce] = nil
            count += 1
        }
        if count > 0 { order.removeFirst(count) }
    }
}
