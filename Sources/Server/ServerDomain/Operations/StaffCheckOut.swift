import SharedDomain

/// Use case: staff end one visit or every open visit at a venue (`qrcheckin-server checkout`),
/// kind `staff`, audited in the same transaction (`staff-check-out`: which visit or venue, how
/// many ended). A check-in that names nothing changes nothing and writes no entry.
public struct StaffCheckOut: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail

    /// Check-outs by `trail`'s operator, at its clock's times.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Ends the visits `target` selects now; returns the report once it and its entry are committed.
    public func run(_ target: CheckOutTarget) async throws(LedgerError) -> CheckOutReport {
        let now = trail.clock.now()
        let subject: String = switch target {
        case .checkIn(let id): "check-in \(id)"
        case .venue(let venue), .enteredBefore(let venue, _), .overstayed(let venue, _): "venue \(venue)"
        case .device(_, let venue): "a device at venue \(venue)"
        }
        return try await trail.change(at: now, { transaction throws(LedgerError) in
            try transaction.checkOut(CheckOutRequest(target, at: now, kind: .staff))
        }, note: { report in
            if case .checkIn = target, report.visit == nil { return nil }
            return AuditNote(.staffCheckOut, subject: subject, rows: report.closed)
        }).value
    }
}
