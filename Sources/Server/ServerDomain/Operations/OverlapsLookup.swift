import SharedDomain

/// Use case: who was at the same venue at the same time as a visit, or as any of one device's
/// visits (`overlaps`; `OverlapQuery` answers), audited as `overlaps` before the answer is
/// returned: it tells who met whom. A check-in that names nothing is answered nil, unaudited
/// (nothing was read of anyone).
public struct OverlapsLookup: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// The venues' settings (their `max-stay`).
    public let venues: VenueDirectory
    /// The question, asked of the visits.
    private let query: OverlapQuery

    /// Lookups by `trail`'s operator in `ledger` under `venues`' settings.
    public init(trail: AuditTrail, ledger: any VisitLedger & VisitLog, venues: VenueDirectory) {
        self.trail = trail
        self.venues = venues
        query = OverlapQuery(ledger: ledger, venues: venues, clock: trail.clock)
    }

    /// Visit `id` and the visits meeting it within `marginSeconds`, once the entry (`detail`
    /// after the margin, how many visits met it) is committed; nil when there is no such visit.
    public func overlaps(of id: Int64, marginSeconds: Int64, detail: String) async throws(LedgerError) -> (visit: CheckIn, others: [CheckIn])? {
        guard let found = try await query.overlaps(of: id, marginSeconds: marginSeconds) else { return nil }
        try await trail.record(AuditNote(.overlaps, subject: "check-in \(id)", detail: Self.detail(marginSeconds, detail), rows: found.others.count))
        return found
    }

    /// Each visit of `device` entered in `from..<until` with the visits meeting it, once the
    /// entry (how many visits met them, all told) is committed.
    public func overlaps(ofDevice device: DeviceID, from: WallTime?, until: WallTime?, marginSeconds: Int64,
                         detail: String) async throws(LedgerError) -> [(visit: CheckIn, others: [CheckIn])] {
        let found = try await query.overlaps(ofDevice: device, from: from, until: until, marginSeconds: marginSeconds)
        try await trail.record(AuditNote(.overlaps, subject: "device \(device.rawValue)", detail: Self.detail(marginSeconds, detail),
                                   rows: found.reduce(0) { $0 + $1.others.count }))
        return found
    }

    private static func detail(_ marginSeconds: Int64, _ more: String) -> String {
        (["margin=\(marginSeconds)s"] + (more.isEmpty ? [] : [more])).joined(separator: " ")
    }
}
