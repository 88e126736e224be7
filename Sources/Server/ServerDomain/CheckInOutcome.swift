import SharedDomain

/// What the check-in use case decided, for the HTTP adapter to turn into a page.
public enum CheckInOutcome: Hashable, Sendable {
    /// A new check-in, committed: show its receipt.
    case checkedIn(CheckIn)
    /// The device checked in here a moment ago: show that check-in ("already checked in at …").
    case alreadyCheckedIn(CheckIn)
    /// The code is good but the venue asks for visitor fields the device has not given: ask
    /// for them, then try again with the moment the code was verified (`verifiedAt`).
    case needsVisitor(VenueID, VisitorFields, verifiedAt: WallTime)
    /// Turned away (and kept in the refusal log).
    case refused(RefusalReason, venue: VenueID?)
    /// The venue holds its capacity: nothing was recorded (kept in the refusal log as `full`).
    case full(VenueID, inside: Int, capacity: Int)
    /// An exit: the visit ended now (`again` false) or had ended before (`again` true).
    case checkedOut(CheckIn, again: Bool)
    /// An exit kiosk's code from a device with no visit at the venue it serves.
    case noVisit(VenueID)
    /// The ledger failed: nothing was recorded, nothing may be acknowledged (503).
    case unavailable(LedgerError)
}
