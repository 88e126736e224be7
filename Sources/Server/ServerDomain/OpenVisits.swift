import SharedDomain

/// Port: how many are inside now, for the console's dashboard, answered by `LedgerOpenVisits`
/// from the ledger's visits without an exit. Who is inside (names) is the evacuation roll's,
/// an audited read (`EvacuationRoll`).
public protocol OpenVisits: Sendable {
    /// How many visits are open at `now` and the capacity, per venue (the dashboard's "inside
    /// now"): the very numbers `status`, `/metrics` and the occupancy endpoint show, counted
    /// where the data is, never by reading the visits.
    func presence(at now: WallTime) throws(LedgerError) -> [LiveCounts.Presence]
}

/// The open visits of the ledger (presence, issue 32): every visit with no exit, counted as the
/// evacuation roll (`EvacuationRoll`) lists them. A visit older than its venue's `max-stay`
/// counts as ended even before the server's closer records it so (an old ledger's visits have
/// no exit at all).
public struct LedgerOpenVisits: OpenVisits {
    public let ledger: any CheckInLedger
    public let venues: VenueDirectory

    /// The open visits of `ledger`, under `venues`' longest stays.
    public init(ledger: any CheckInLedger, venues: VenueDirectory) {
        self.ledger = ledger
        self.venues = venues
    }

    public func presence(at now: WallTime) throws(LedgerError) -> [LiveCounts.Presence] {
        // The one count of open visits (`LiveCounts.presence`, as `status` and `/metrics`
        // read it): the dashboard once counted check-ins within the duplicate time instead,
        // and went on counting visitors who had left.
        try LiveCounts.presence(from: ledger, venues: venues, at: now)
    }
}
