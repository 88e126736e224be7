import SharedDomain

/// One venue's occupancy today, every `bucketMilliseconds` (5 minutes) from the day's start:
/// how many were inside at each boundary, counted from the visits' entries and exits
/// (`VisitFlowLog`), and at the end the count of who is inside now (`LiveCounts.presence`, the
/// one count the roll, `inside`, the occupancy endpoint and `status` show).
///
/// Inside at a moment `t`: the visits entered before `t` and not ended before `t`, a visit
/// without a recorded exit ending at its entry plus its venue's `max-stay` (as the server's
/// closer will record it, and as the presence count already treats it). Exact when `max-stay`
/// is a whole number of buckets (it is minutes or hours in practice); otherwise such an end is
/// placed in the bucket of its entry plus the whole buckets of the stay.
public struct OccupancyCurve: Hashable, Sendable {
    /// The standard bucket: five minutes.
    public static let standardBucketMilliseconds: Int64 = 300_000

    /// The venue.
    public let venue: VenueID
    /// Where the curve starts (the day's start, local midnight).
    public let start: WallTime
    /// The width of a bucket.
    public let bucketMilliseconds: Int64
    /// Inside at `start + k × bucketMilliseconds`, for k = 0 through the last boundary at or
    /// before `now`.
    public let boundaries: [Int]
    /// Entries in each bucket from `start` up to `now` (the last one still running).
    public let entries: [Int]
    /// Ends of visits (recorded, or by `max-stay`) in each bucket, as `entries`.
    public let exits: [Int]
    /// When the curve ends.
    public let now: WallTime
    /// Inside at `now`: the presence count.
    public let insideNow: Int
    /// The venue's capacity, if it has one.
    public let capacity: Int?

    /// The curve of `venue` from `flows` (a `VisitFlowLog`'s answer to `query`, whose origin
    /// lies a whole number of buckets before `start`), for visits of `maxStaySeconds`, ending
    /// at `now` with `insideNow`.
    public init(venue: VenueID, flows: [VisitFlow], query: VisitFlowQuery, start: WallTime, now: WallTime, maxStaySeconds: Int64,
                insideNow: Int, capacity: Int?) {
        let width = query.bucketMilliseconds
        let offset = query.bucket(of: start)
        // Boundaries at or before now (the first is `start` itself), buckets begun before now.
        let elapsed = max(0, now.milliseconds - start.milliseconds)
        let last = Int(elapsed / width)
        let begun = max(1, Int((elapsed + width - 1) / width))
        var change = [Int](repeating: 0, count: last + 2)
        var entries = [Int](repeating: 0, count: begun), exits = [Int](repeating: 0, count: begun)
        let stayBuckets = Int(maxStaySeconds * 1000 / width)
        for flow in flows where flow.venue == venue {
            let entered = flow.entered - offset
            let ended = (flow.exited ?? (flow.entered + stayBuckets)) - offset
            // Inside at every boundary j with entered < j <= ended.
            let from = max(entered + 1, 0), through = min(ended, last)
            if from <= through {
                change[from] += flow.count
                change[through + 1] -= flow.count
            }
            if entries.indices.contains(entered) { entries[entered] += flow.count }
            if exits.indices.contains(ended) { exits[ended] += flow.count }
        }
        var boundaries: [Int] = []
        var running = 0
        for j in 0...last {
            running += change[j]
            boundaries.append(running)
        }
        self.venue = venue
        self.start = start
        self.bucketMilliseconds = width
        self.boundaries = boundaries
        self.entries = entries
        self.exits = exits
        self.now = now
        self.insideNow = insideNow
        self.capacity = capacity
    }

    /// Every point of the curve: (milliseconds since `start`, inside), the boundaries then now.
    public var points: [(offset: Int64, inside: Int)] {
        var points = boundaries.enumerated().map { (Int64($0.offset) * bucketMilliseconds, $0.element) }
        let nowOffset = max(0, now.milliseconds - start.milliseconds)
        if points.last?.0 == nowOffset { points[points.count - 1].1 = insideNow } else { points.append((nowOffset, insideNow)) }
        return points
    }

    /// The most inside at any point today, and the first moment it was reached.
    public var peak: (inside: Int, at: WallTime) {
        var best = (inside: 0, at: start)
        for point in points where point.inside > best.inside {
            best = (point.inside, WallTime(milliseconds: start.milliseconds + point.offset))
        }
        return best
    }

    /// How much longer than its `max-stay` a visit may have lasted and still be seen: a check-out
    /// after the stay is recorded only until the server's closer ends the visit (a pass a
    /// minute), or while the server was down.
    public static let lateExitSeconds: Int64 = 3600

    /// The query whose answer draws the curves of the day starting at `start`, up to `now`,
    /// for visits of at most `longestStaySeconds` (and `lateExitSeconds`): from the
    /// bucket-aligned moment that long before `start`, so that the visits still inside at
    /// `start` are counted.
    public static func query(start: WallTime, now: WallTime, longestStaySeconds: Int64,
                             bucketMilliseconds: Int64 = standardBucketMilliseconds) -> VisitFlowQuery {
        let longest = (max(0, longestStaySeconds) + lateExitSeconds) * 1000
        let lookback = (longest + bucketMilliseconds - 1) / bucketMilliseconds * bucketMilliseconds
        // Until a day after now: entries stamped after now (another server's clock ahead) are
        // today's check-ins too, as a tally from midnight counts them; the curve ends at now.
        return VisitFlowQuery(origin: WallTime(milliseconds: start.milliseconds - lookback), since: start,
                              until: WallTime(milliseconds: max(now.milliseconds, start.milliseconds) + 86_400_000), bucketMilliseconds: bucketMilliseconds)
    }
}
