/// Port: the code for a venue's window and sequence number. `CheckInCodeIssuer` is the real one;
/// tests substitute their own.
public protocol CheckInCodeIssuing: Sendable {
    /// The venue codes are issued for.
    var venue: VenueID { get }
    /// The rotation period the windows are cut by.
    var period: RotationPeriod { get }
    /// The code for `window` (⌊t / period⌋) and `sequence` (0, then +1 per forced refresh).
    func code(window: Int64, sequence: Int) -> CheckInCode
}
