import SharedDomain

/// Port: who is inside now, for the console's "inside" page and the dashboard. A seam for the
/// presence feature (entries, exits, capacity), which will answer it from its own table; until
/// then `RecentCheckInVisits` answers it from the visitor log.
public protocol OpenVisits: Sendable {
    /// The check-ins whose visit is open at `now`, oldest first, at most `limit`.
    func open(at now: WallTime, limit: Int) throws(LedgerError) -> [CheckIn]
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
}
