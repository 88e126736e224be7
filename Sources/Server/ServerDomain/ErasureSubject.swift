import SharedDomain

/// Whose check-ins an erasure deletes.
public enum ErasureSubject: Hashable, Sendable {
    /// Every check-in of one device.
    case device(DeviceID)
    /// Every check-in whose visitor gave this phone number (digits, as `Visitor` keeps them).
    case phone(String)
    /// The one check-in with this id (the id shown, as `VisitLedger.find(id:)` takes it); if it opened its
    /// device's duplicate time, that key goes with it.
    case checkIn(Int64)
}
