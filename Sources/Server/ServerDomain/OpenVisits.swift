import SharedDomain

/// Port: who is inside now, for the console's "inside" page and the dashboard, answered by
/// `LedgerOpenVisits` from the ledger's visits without an exit.
public protocol OpenVisits: Sendable {
    /// The check-ins whose visit is open at `now`, oldest first, at most `limit`.
    func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn]
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
}
