import SharedDomain

/// Use case: who was at the same venue at the same time as a visit (issue 32), the question
/// an epidemiological investigation asks. A visit counts from its entry to its exit; one
/// without an exit to now, but never past its venue's `max-stay` (the server ends it then).
/// Both intervals are widened by the margin. The answer comes from the ledger's index on
/// entry times (`MeetingQuery`), never a scan of the log.
public struct OverlapQuery: Sendable {
    /// The visits and the log they are found in.
    public let ledger: any VisitLedger & VisitLog
    /// The venues' settings (their `max-stay`).
    public let venues: VenueDirectory
    /// Whose now an open visit counts to.
    public let clock: any WallClock

    /// A query of `ledger` by `venues`' settings at `clock`'s now.
    public init(ledger: any VisitLedger & VisitLog, venues: VenueDirectory, clock: any WallClock) {
        self.ledger = ledger
        self.venues = venues
        self.clock = clock
    }

    /// The visit `id` and every other visit at its venue meeting it within `marginSeconds`,
    /// oldest first; nil when there is no such visit.
    public func overlaps(of id: Int64, marginSeconds: Int64) async throws(LedgerError) -> (visit: CheckIn, others: [CheckIn])? {
        guard let visit = try await ledger.find(id: id) else { return nil }
        return (visit, try await meeting(visit, marginSeconds: marginSeconds, now: clock.now()))
    }

    /// Every visit of `device` entered in `from..<until`, each with the visits meeting it.
    public func overlaps(ofDevice device: DeviceID, from: WallTime?, until: WallTime?,
                         marginSeconds: Int64) async throws(LedgerError) -> [(visit: CheckIn, others: [CheckIn])] {
        var visits: [CheckIn] = []
        try await ledger.eachCheckIn(CheckInQuery(from: from, until: until, device: device)) { visit in
            visits.append(visit)
            return true
        }
        let now = clock.now()
        var answers: [(visit: CheckIn, others: [CheckIn])] = []
        for visit in visits { answers.append((visit, try await meeting(visit, marginSeconds: marginSeconds, now: now))) }
        return answers
    }

    /// The query `visit` meets others by, at `now`.
    public func query(for visit: CheckIn, marginSeconds: Int64, now: WallTime) -> MeetingQuery {
        let stay = (venues.profile(for: visit.venue) ?? venues.defaults).maxStaySeconds
        let probe = MeetingQuery(venue: visit.venue, from: visit.time, until: visit.time, now: now, longestStaySeconds: stay)
        let margin = marginSeconds * 1000
        return MeetingQuery(venue: visit.venue, from: WallTime(milliseconds: visit.time.milliseconds - margin),
                            until: WallTime(milliseconds: probe.end(of: visit).milliseconds + margin), now: now, longestStaySeconds: stay)
    }

    private func meeting(_ visit: CheckIn, marginSeconds: Int64, now: WallTime) async throws(LedgerError) -> [CheckIn] {
        try await ledger.visits(meeting: query(for: visit, marginSeconds: marginSeconds, now: now)).filter { $0.id != visit.id }
    }
}
