import SharedDomain

/// Port: who is inside now, for the console's "inside" page and the dashboard, answered by
/// `LedgerOpenVisits` from the ledger's visits without an exit.
public protocol OpenVisits: Sendable {
    /// The check-ins whose visit is open at `now`, oldest first, at most `limit`.
    func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn]

    /// How many visits are open at `now` and the capacity, per venue (the dashboard's "inside
    /// now"): the very numbers `status`, `/metrics` and the occupancy endpoint show, counted
    /// where the data is, never by reading the visits.
    func presence(at now: WallTime) throws(LedgerError) -> [LiveCounts.Presence]
}

/// The open visits of the ledger (presence, issue 32): every visit with no exit, as the
/// evacuation roll (`qrcheckin-server inside`) lists them. A visit older than its venue's
/// `max-stay` counts as ended even before the server's closer records it so (an old ledger's
/// visits have no exit at all).
public struct LedgerOpenVisits: OpenVisits {
    public let ledger: any CheckInLedger
    public let venues: VenueDirectory

    /// The open visits of `ledger`, under `venues`' longest stays.
    public init(ledger: any CheckInLedger, venues: VenueDirectory) {
        self.ledger = ledger
        self.venues = venues
    }

    public func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn] {
        var open: [CheckIn] = []
        try ledger.openVisits(venue: nil) { visit in
            let profile = venues.profile(for: visit.venue) ?? venues.defaults
            if visit.time >= profile.openSince(at: now) { open.append(visit) }
            return open.count < limit
        }
        return open
    }

    public func presence(at now: WallTime) throws(LedgerError) -> [LiveCounts.Presence] {
        // The one count of open visits (`LiveCounts.presence`, as `status` and `/metrics`
        // read it): the dashboard once counted check-ins within the duplicate time instead,
        // and went on counting visitors who had left.
        try LiveCounts.presence(from: ledger, venues: venues, at: now)
    }
}
