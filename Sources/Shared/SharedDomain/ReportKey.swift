/// A venue's report key (docs/TOKEN.md, "Kiosk reports"): what a kiosk's reporter signs its
/// reports with and checks the server's answers by. Derived from the venue key under its own
/// HKDF label, so it can neither issue nor verify check-in codes: a reporter that holds only
/// this key cannot forge a check-in. Like the other keys it never shows its bytes.
public struct ReportKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// HKDF output length: one HMAC-SHA256 key.
    public static let length = 32
    /// HKDF info prefix: a label of its own, never a venue key's.
    static let infoPrefix = Array("REPORT-KEY:".utf8)

    /// The only venue this key reports for.
    public let venue: VenueID
    /// The key bytes; `package` so only this package's layers can read them.
    package let bytes: [UInt8]

    /// Wraps a key read from a report key file; exactly `length` bytes.
    public init(venue: VenueID, bytes: [UInt8]) throws(CheckInCodeError) {
        guard bytes.count == Self.length else { throw .invalidVenueKeyLength(bytes.count) }
        self.venue = venue
        self.bytes = bytes
    }

    /// Derives the report key of `venueKey`'s venue:
    /// HKDF-SHA256(IKM: venue_key, salt: "QRCHECKIN-V1", info: "REPORT-KEY:" ‖ venue, L: 32).
    public init(deriving venueKey: VenueSigningKey, authenticator: any MessageAuthenticator) {
        venue = venueKey.venue
        bytes = HKDF(authenticator: authenticator).deriveKey(
            inputKeyMaterial: venueKey.bytes, salt: VenueSigningKey.salt,
            info: Self.infoPrefix + Array(venueKey.venue.rawValue.utf8), length: Self.length)
    }

    /// The report key of `venue` from a key source (a master secret derives the venue key first;
    /// a venue key must be `venue`'s).
    public init(from source: SigningKeySource, venue: VenueID, authenticator: any MessageAuthenticator) throws(SigningKeyError) {
        self.init(deriving: try source.key(for: venue, authenticator: authenticator), authenticator: authenticator)
    }

    public var description: String { "ReportKey(\(venue), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["venue": venue]) }
}
