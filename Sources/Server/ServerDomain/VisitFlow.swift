import SharedDomain

/// Port: visits counted by when they began and ended, per venue and bucket of time: what the
/// console's occupancy curve (`OccupancyCurve`) is drawn from. One grouped read from the
/// index on entry time (`checkins_at`), never a read of the visits themselves. Every engine
/// implements it (SQLite and PostgreSQL once in `SQLLedger`, the in-memory ledger for tests)
/// and passes `VisitFlowContract`.
public protocol VisitFlowLog: Sendable {
    /// The visits `query` selects (entered at or after `query.origin` and before
    /// `query.until`, not ended before `query.since`), counted per venue, entry bucket and exit
    /// bucket (`VisitFlow`), in no particular order.
    func visitFlow(_ query: VisitFlowQuery) async throws(LedgerError) -> [VisitFlow]
}

/// Which visits a `VisitFlowLog` counts, and the buckets it counts them in.
public struct VisitFlowQuery: Hashable, Sendable {
    /// Bucket 0 starts here: the earliest entry counted (a day's start less the longest stay,
    /// so the visits still inside at the day's start are counted too).
    public let origin: WallTime
    /// Visits that ended before this moment are left out (they changed nothing after it).
    public let since: WallTime
    /// Entries at or after this moment are left out (a day after now: a clock ahead is still today).
    public let until: WallTime
    /// The width of a bucket, in milliseconds (positive).
    public let bucketMilliseconds: Int64

    /// A query of visits entered from `origin` to `until`, not ended before `since`, in
    /// buckets of `bucketMilliseconds` from `origin`.
    public init(origin: WallTime, since: WallTime, until: WallTime, bucketMilliseconds: Int64) {
        precondition(bucketMilliseconds > 0, "a bucket has a width")
        self.origin = origin
        self.since = since
        self.until = until
        self.bucketMilliseconds = bucketMilliseconds
    }

    /// The bucket of `time` (from `origin`; never negative for a time at or after it).
    public func bucket(of time: WallTime) -> Int {
        Self.floor(time.milliseconds - origin.milliseconds, bucketMilliseconds)
    }

    /// `value / divisor` rounded toward negative infinity (`/` rounds toward zero).
    static func floor(_ value: Int64, _ divisor: Int64) -> Int {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// Whether `visit` is counted: the rule every engine follows.
    public func selects(_ visit: CheckIn) -> Bool {
        visit.time >= origin && visit.time < until && (visit.exit.map { $0.time >= since } ?? true)
    }
}

/// How many visits at one venue entered in one bucket and ended in another (or have no exit).
public struct VisitFlow: Hashable, Sendable {
    /// The venue.
    public let venue: VenueID
    /// The bucket of their entries (`VisitFlowQuery.bucket(of:)`).
    public let entered: Int
    /// The bucket of their exits; nil while no exit is recorded (the visit is open, or ended
    /// by its venue's `max-stay` before the server's closer wrote it so).
    public let exited: Int?
    /// How many.
    public let count: Int

    /// A count of `count` visits.
    public init(venue: VenueID, entered: Int, exited: Int?, count: Int) {
        self.venue = venue
        self.entered = entered
        self.exited = exited
        self.count = count
    }
}
