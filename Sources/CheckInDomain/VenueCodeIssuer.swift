/// The issue use case bound to one venue: what the daemon's view model asks for codes.
public struct VenueCodeIssuer: CheckInCodeIssuing {
    public let venue: VenueID
    /// The issuer holding the secret and base URL.
    public let issuer: CheckInCodeIssuer

    /// Binds `issuer` to `venue`.
    public init(venue: VenueID, issuer: CheckInCodeIssuer) {
        self.venue = venue
        self.issuer = issuer
    }

    public var period: RotationPeriod { issuer.period }

    public func code(window: Int64, sequence: Int) -> CheckInCode {
        issuer.code(for: venue, window: window, sequence: sequence)
    }
}
