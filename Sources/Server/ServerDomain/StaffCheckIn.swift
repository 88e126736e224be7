import SharedDomain

/// Use case: door staff check a visitor in by hand (`qrcheckin-server checkin`): no code, no
/// device, never a duplicate, recorded now with the operator's name as the audit trail. Venue
/// profiles are the caller's business: staff may record any venue the server serves.
public struct StaffCheckIn: Sendable {
    /// The visitor log.
    public let ledger: any CheckInLedger
    /// Whose now the check-in is recorded at.
    public let clock: any WallClock

    /// Staff check-ins into `ledger` at `clock`'s times.
    public init(ledger: any CheckInLedger, clock: any WallClock) {
        self.ledger = ledger
        self.clock = clock
    }

    /// Records `visitor` (or an anonymous visitor) at `venue` now, by `operatorName`, and hands
    /// the check-in to `completion` after the commit. With `profile`'s capacity (nil: none, as
    /// `--over-capacity` asks), a full venue records nothing and answers `.full`.
    public func record(venue: VenueID, visitor: Visitor?, operatorName: String, profile: VenueProfile? = nil,
                       completion: @escaping @Sendable (Result<Admission, LedgerError>) -> Void) {
        let now = clock.now()
        let entry = NewCheckIn(venue: venue, time: now, method: .staff, windowAge: nil, device: nil,
                               visitor: visitor, operatorName: operatorName)
        let rules = profile.map { AdmissionRules(duplicateSeconds: 0, capacity: $0.presence.capacity, openSince: $0.openSince(at: now)) }
            ?? AdmissionRules(duplicateSeconds: 0)
        ledger.record(entry, rules: rules, completion: completion)
    }
}
