import SharedDomain

/// Port: who is inside now, for the console's "inside" page and the dashboard, answered by
/// `LedgerOpenVisits` from the ledger's visits without an exit.
public protocol OpenVisits: Sendable {
    /// The check-ins whose visit is open at `now`, oldest first, at most `limit`.
    func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn]

    /// How many visits are open at `now`, per venue (the dashboard's "inside now"): counted
    /// where the data is, never by reading the visits.
    func counts(at now: WallTime) throws(LedgerError) -> [VenueID: Int]
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

    public func counts(at now: WallTime) throws(LedgerError) -> [VenueID: Int] {
        // Per duplicate time, one tally from its start (the ledger counts, grouped by venue).
        var counts: [VenueID: Int] = [:]
        let windows = Dictionary(grouping: [venues.defaults.duplicateSeconds] + venues.profiles.values.map(\.duplicateSeconds), by: { $0 }).keys
        for seconds in windows.sorted() {
            for tally in try ledger.tally(CheckInQuery(from: WallTime(milliseconds: now.milliseconds - seconds * 1000)))
                where (venues.profile(for: tally.venue) ?? venues.defaults).duplicateSeconds == seconds {
                counts[tally.venue, default: 0] += tally.count
            }
        }
        return counts
    }
}
