import SharedDomain

/// Port: refused scans counted by venue and reason, for the console's dashboard ("refusals by
/// reason" today). A count from the database, so every server of one PostgreSQL shows the same.
public protocol RefusalCounting: Sendable {
    /// The refusals at or after `since`, counted per venue (nil: a venue no key serves) and reason.
    func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount]
}

/// How many scans were refused at one venue for one reason.
public struct RefusalCount: Hashable, Sendable {
    public let venue: VenueID?
    public let reason: RefusalReason
    public let count: Int

    /// A count of these.
    public init(venue: VenueID?, reason: RefusalReason, count: Int) {
        self.venue = venue
        self.reason = reason
        self.count = count
    }
}

extension InMemoryLedger: RefusalCounting {
    public func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount] {
        var counts: [RefusalKey: Int] = [:]
        for refusal in refusals() where refusal.time >= since {
            counts[RefusalKey(venue: refusal.venue, reason: refusal.reason), default: 0] += 1
        }
        return counts.map { RefusalCount(venue: $0.key.venue, reason: $0.key.reason, count: $0.value) }
    }

    private struct RefusalKey: Hashable {
        let venue: VenueID?
        let reason: RefusalReason
    }
}
