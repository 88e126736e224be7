/// The issue use case bound to one venue: what the daemon's view model asks for codes.
///
/// The venue key is derived (or checked, for a venue key) once here, not per code: the HKDF
/// costs more than the code itself.
public struct VenueCodeIssuer: CheckInCodeIssuing {
    public let venue: VenueID
    public let period: RotationPeriod
    /// The URL prefix of every code.
    public let baseURL: String
    private let key: VenueKey

    /// Binds a key source to `venue`; a venue key for another venue is refused.
    public init(venue: VenueID, keys: SigningKeySource, baseURL: String, period: RotationPeriod,
                authenticator: any MessageAuthenticator) throws(SigningKeyError) {
        self.venue = venue
        self.period = period
        self.baseURL = baseURL
        key = VenueKey(key: try keys.key(for: venue, authenticator: authenticator), period: period, authenticator: authenticator)
    }

    /// Binds a master-secret issuer to `venue`.
    public init(venue: VenueID, issuer: CheckInCodeIssuer) {
        // A master secret serves every venue.
        try! self.init(venue: venue, keys: issuer.keySource, baseURL: issuer.baseURL, period: issuer.period,
                       authenticator: issuer.authenticatorForBinding)
    }

    /// The code of `window`. A sequence beyond `CheckInCodeIssuer.maximumSequence` (a forced
    /// refresh at 4294967295) re-issues the last code of the window: nothing new can be signed
    /// in that window, and nothing repeats that was not already on screen.
    public func code(window: Int64, sequence: Int) -> CheckInCode {
        let clamped = min(max(sequence, 0), CheckInCodeIssuer.maximumSequence)
        return CheckInCodeIssuer.code(key: key, baseURL: baseURL, window: window, sequence: clamped)
    }

    /// The code at `unixTime` (its window).
    public func code(at unixTime: Int64, sequence: Int = 0) -> CheckInCode {
        code(window: period.window(at: unixTime), sequence: sequence)
    }
}
