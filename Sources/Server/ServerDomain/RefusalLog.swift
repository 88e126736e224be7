import SharedDomain

/// Port: refused scans, kept for the refusal log's shorter retention and counted for the
/// console's dashboard. Every engine implements it and passes `RefusalLogContract`.
public protocol RefusalLog: Sendable {
    /// Keeps a refused scan; returns once committed.
    func recordRefusal(_ refusal: Refusal) async throws(LedgerError)

    /// Keeps a refused scan without waiting for it: a flood of refusals must not hold the
    /// server's tasks. Nothing is promised to anyone about a refusal, so a failure is dropped.
    func recordRefusalLater(_ refusal: Refusal)

    /// The refusals at or after `since`, counted per venue (nil: a venue no key serves) and
    /// reason: a count from the database, so every server of one PostgreSQL shows the same.
    func refusalCounts(since: WallTime) async throws(LedgerError) -> [RefusalCount]
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
