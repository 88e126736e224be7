import SharedDomain

/// Port: who is inside now, for the console's "inside" page and the dashboard. A seam for the
/// presence feature (entries, exits, capacity), which will answer it from its own table; until
/// then `RecentCheckInVisits` answers it from the visitor log.
public protocol OpenVisits: Sendable {
    /// The check-ins whose visit is open at `now`, oldest first, at most `limit`.
    func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn]

    /// How many visits are open at `now`, per venue (the dashboard's "inside now"): counted
    /// where the data is, never by reading the visits.
    func counts(at now: WallTime) throws(LedgerError) -> [VenueID: Int]
}

/// Open visits read from the log: a check-in counts as inside until its venue's duplicate time
/// has passed (the time one visit lasts, by the venue's own setting). No exits are known.
public struct RecentCheckInVisits: OpenVisits {
    public let ledger: any CheckInLedger
    public let venues: VenueDirectory

    /// Visits of `ledger`'s check-ins under `venues`' duplicate times.
    public init(ledger: any CheckInLedger, venues: VenueDirectory) {
        self.ledger = ledger
        self.venues = venues
    }

    public func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn] {
        let longest = ([venues.defaults] + Array(venues.profiles.values)).map(\.duplicateSeconds).max() ?? VenueProfile.standardDuplicateSeconds
        var open: [CheckIn] = []
        try ledger.export(CheckInQuery(from: WallTime(milliseconds: now.milliseconds - longest * 1000))) { checkIn in
            let lasts = (venues.profile(for: checkIn.venue) ?? venues.defaults).duplicateSeconds * 1000
            if checkIn.time.milliseconds + lasts > now.milliseconds { open.append(checkIn) }
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
