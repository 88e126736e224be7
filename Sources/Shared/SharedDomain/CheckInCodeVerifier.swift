/// Use case: decides offline whether a scanned URL, a token or a typed safe number is a live
/// code, TOTP-style: the MAC must match and the window must be within ±`skew` windows of now.
///
/// It holds one or more key sources, tried in order (secret rotation: old and new side by side);
/// a report says which one matched. For many codes in a row use `session()`, which derives each
/// venue's key once instead of per code.
public struct CheckInCodeVerifier: Sendable {
    /// The default tolerance: one window each way, for kiosk clocks and slow scans.
    public static let defaultSkew = 1
    /// How far beyond the skew a safe number is still recognised to say expired/not-yet-valid.
    static let safeNumberLookaround: Int64 = 4

    /// The window length the codes were issued with.
    public let period: RotationPeriod
    /// Windows accepted on either side of the current one, 0...`CheckInTime.maximumSkew`.
    public let skew: Int
    /// The key sources, in the order they are tried.
    public let keys: [SigningKeySource]
    let authenticator: any MessageAuthenticator

    /// Creates a verifier over `keys` (at least one), tried in order.
    public init(keys: [SigningKeySource], period: RotationPeriod, skew: Int = defaultSkew, authenticator: any MessageAuthenticator) {
        precondition(!keys.isEmpty, "a verifier needs a key")
        precondition((0...CheckInTime.maximumSkew).contains(skew), "skew out of range: \(skew)")
        self.keys = keys
        self.period = period
        self.skew = skew
        self.authenticator = authenticator
    }

    /// Creates a verifier for one master secret.
    public init(secret: MasterSecret, period: RotationPeriod, skew: Int = defaultSkew, authenticator: any MessageAuthenticator) {
        self.init(keys: [.master(secret)], period: period, skew: skew, authenticator: authenticator)
    }

    /// A verifier that remembers each venue's keys between codes: for a stream of codes.
    public func session() -> CheckInVerificationSession {
        CheckInVerificationSession(verifier: self)
    }

    /// Checks a URL, a bare token or a safe number (told apart as docs/TOKEN.md says) with
    /// everything learnt on the way. `expectedVenue` is the venue verifying: a URL must name it,
    /// and bare tokens and safe numbers are checked for it.
    public func check(_ input: String, expectedVenue: VenueID?, at unixTime: Int64) -> VerificationReport {
        session().check(input, expectedVenue: expectedVenue, at: unixTime)
    }

    /// Verifies a URL (`…/<VENUE>/<TOKEN>`), a bare token or a safe number. A URL's venue must
    /// equal `expectedVenue` when one is given; without one a bare token is `no-venue`.
    public func verify(_ urlOrToken: String, expectedVenue: VenueID?, at unixTime: Int64) -> CheckInVerification {
        check(urlOrToken, expectedVenue: expectedVenue, at: unixTime).verification
    }

    /// Verifies a bare token for `venue`: format, then MAC, then time, so a forged token is
    /// reported as bad-mac whatever window it claims.
    public func verify(token: String, venue: VenueID, at unixTime: Int64) -> CheckInVerification {
        var text = token
        return text.withUTF8 { session().checkToken($0, venue: venue, at: unixTime) }.verification
    }

    /// Verifies a typed safe number for `venue`: it must match the safe number of a window within
    /// the skew. Every candidate is compared in constant time.
    public func verify(safeNumber: String, venue: VenueID, at unixTime: Int64) -> CheckInVerification {
        session().checkSafeNumber(safeNumber, venue: venue, at: unixTime).verification
    }
}
