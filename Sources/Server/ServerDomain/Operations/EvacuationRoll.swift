import SharedDomain

/// Use case: the evacuation roll, who is inside now (`inside`, the console's "who is inside"),
/// audited as `inside`: the open visits are counted, the entry committed, and only then are
/// they handed out, no more than the entry says. A visit older than its venue's `max-stay`
/// has ended even before the server's closer records it so, and is not listed.
public struct EvacuationRoll: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// The open visits.
    public let visits: any VisitLedger
    /// The venues' settings (their `max-stay`).
    public let venues: VenueDirectory

    /// Rolls by `trail`'s operator of `visits` under `venues`' settings.
    public init(trail: AuditTrail, visits: any VisitLedger, venues: VenueDirectory) {
        self.trail = trail
        self.visits = visits
        self.venues = venues
    }

    /// What a roll that could not be audited does.
    public enum Unaudited: Sendable {
        /// Nothing leaves: the entry's failure is thrown (the rule, and the console's way).
        case refuse
        /// The roll is listed all the same and `warn` is told why no entry was written. Only
        /// for the shell's roll in an evacuation on a ledger that cannot be written (a full
        /// disk, a read-only mount): the deliberate exception, documented in docs/PRIVACY.md.
        case listAnyway(warn: @Sendable (LedgerError) -> Void)
    }

    /// Lists the open visits of `venue` (nil: every venue) at the trail's now, oldest first,
    /// to `body` (false stops), after the entry (`detail`, how many) is committed; returns it.
    @discardableResult
    public func run(venue: VenueID?, detail: String, unaudited: Unaudited = .refuse,
                    _ body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) -> AuditEntry? {
        let now = trail.clock.now()
        var count = 0
        try await visits(venue: venue, at: now) { _ throws(LedgerError) in
            count += 1
            return true
        }
        let entry: AuditEntry?
        do throws(LedgerError) {
            entry = try await trail.record(AuditNote(.inside, subject: venue.map { "venue \($0)" }, detail: detail, rows: count), at: now)
        } catch {
            guard case .listAnyway(let warn) = unaudited else { throw error }
            warn(error)
            entry = nil
        }
        var listed = 0
        try await visits(venue: venue, at: now) { visit throws(LedgerError) in
            listed += 1
            guard listed <= count, try await body(visit) else { return false }
            return listed < count
        }
        return entry
    }

    /// The open visits of `venue` at `now` that have not outlived their venue's `max-stay`.
    private func visits(venue: VenueID?, at now: WallTime, _ body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) {
        try await visits.eachOpenVisit(venue: venue) { visit throws(LedgerError) in
            let profile = venues.profile(for: visit.venue) ?? venues.defaults
            guard visit.time >= profile.openSince(at: now) else { return true }
            return try await body(visit)
        }
    }
}
