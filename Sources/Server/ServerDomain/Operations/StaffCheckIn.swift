import SharedDomain

/// Use case: door staff check a visitor in by hand (`qrcheckin-server checkin`, the console's
/// staff check-in): no code, no device, never a duplicate, recorded now with the operator's
/// name, and audited in the same transaction (`staff-check-in`, or `over-capacity` for an
/// admission past the venue's capacity). Venue profiles are the caller's business: staff may
/// record any venue the server serves.
public struct StaffCheckIn: Sendable {
    /// Whose actions (the operator the check-in names), on which log.
    public let trail: AuditTrail

    /// Staff check-ins by `trail`'s operator, at its clock's times.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Records `visitor` (or an anonymous visitor) at `venue` now and returns the admission
    /// once it and its entry are committed. With `profile`'s capacity a full venue records
    /// nothing (`.full`, no entry) unless `overCapacity` admits anyway: then the entry says
    /// `over-capacity` when the venue held its capacity.
    public func record(venue: VenueID, visitor: Visitor?, profile: VenueProfile?, overCapacity: Bool = false) async throws(LedgerError) -> Admission {
        let now = trail.clock.now()
        let entry = NewCheckIn(venue: venue, time: now, method: .staff, windowAge: nil, device: nil,
                               visitor: visitor, operatorName: trail.actor.name)
        let capacity = profile?.presence.capacity
        let openSince = profile?.openSince(at: now)
        let rules = AdmissionRules(duplicateSeconds: 0, capacity: overCapacity ? nil : capacity, openSince: openSince)
        return try await trail.change(at: now, { transaction throws(LedgerError) -> (Admission, over: Bool) in
            // Counted in the transaction that admits: an admission past the capacity says so.
            let inside = overCapacity && capacity != nil ? try transaction.occupancy(venue: venue, openSince: openSince) : 0
            return (try transaction.record(entry, rules: rules), capacity.map { inside >= $0 } ?? false)
        }, note: { admission, over in
            guard case .admitted(let outcome) = admission else { return nil }
            return AuditNote(over ? .overCapacity : .staffCheckIn, subject: "check-in \(outcome.checkIn.id)",
                             detail: "venue \(venue)" + (over ? " over capacity \(capacity!)" : ""), rows: 1)
        }).value.0
    }
}
