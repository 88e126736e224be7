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
        try await run(venue: venue, detail: detail, unaudited: unaudited, into: [CheckIn](), CheckInRows.keep) { page throws(LedgerError) in
            try await CheckInRows.hand(&page, to: body)
        }
    }

    /// The same roll folded into `value` by `fold` a page at a time where the ledger reads the
    /// visits (the shell's rows written as bytes there: `FoldedPage`); after each page `body`
    /// takes the value (writes the page and empties it) and returns false to stop.
    @discardableResult
    public func run<Value: Sendable>(venue: VenueID?, detail: String, unaudited: Unaudited = .refuse, into value: consuming Value,
                                     _ fold: @escaping CheckInFold<Value>,
                                     _ body: (inout Value) async throws(LedgerError) -> Bool) async throws(LedgerError) -> AuditEntry? {
        let now = trail.clock.now()
        let count = try await visits(venue: venue, at: now, into: 0, { count, _ in count += 1 }) { _ throws(LedgerError) in true }
        let entry: AuditEntry?
        do throws(LedgerError) {
            entry = try await trail.record(AuditNote(.inside, subject: venue.map { "venue \($0)" }, detail: detail, rows: count), at: now)
        } catch {
            guard case .listAnyway(let warn) = unaudited else { throw error }
            warn(error)
            entry = nil
        }
        // No more than the entry counted: visits begun since are the next roll's.
        try await visits(venue: venue, at: now, into: Listing(value: consume value), { listing, visit in
            guard listing.listed < count else { return }
            listing.listed += 1
            fold(&listing.value, visit)
        }) { listing throws(LedgerError) in
            guard try await body(&listing.value) else { return false }
            return listing.listed < count
        }
        return entry
    }

    /// A roll's value and how many visits it took.
    private struct Listing<Value: Sendable>: Sendable {
        var value: Value
        var listed = 0
    }

    /// The open visits of `venue` at `now` that have not outlived their venue's `max-stay`,
    /// folded into `value` a page at a time (`VisitLedger.eachOpenPage`).
    @discardableResult
    private func visits<Value: Sendable>(venue: VenueID?, at now: WallTime, into value: consuming Value, _ fold: @escaping CheckInFold<Value>,
                                         _ body: (inout Value) async throws(LedgerError) -> Bool) async throws(LedgerError) -> Value {
        let venues = self.venues
        return try await visits.eachOpenPage(venue: venue, into: consume value, { value, visit in
            let profile = venues.profile(for: visit.venue) ?? venues.defaults
            guard visit.time >= profile.openSince(at: now) else { return }
            fold(&value, visit)
        }, body)
    }
}
