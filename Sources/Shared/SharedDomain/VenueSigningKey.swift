/// One venue's derived key (docs/TOKEN.md, "Keys"): all a kiosk needs to sign that venue's
/// codes, and nothing that signs another venue's. Like `MasterSecret` it never shows its bytes.
public struct VenueSigningKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// HKDF output length: one HMAC-SHA256 key.
    public static let length = 32
    /// HKDF salt and info prefix of the format.
    static let salt = Array("QRCHECKIN-V1".utf8)
    static let infoPrefix = Array("VENUE-KEY:".utf8)

    /// The only venue this key signs for.
    public let venue: VenueID
    /// The key bytes; `package` so only this package's layers can read them.
    package let bytes: [UInt8]

    /// Wraps a key read from a venue key file; exactly `length` bytes.
    public init(venue: VenueID, bytes: [UInt8]) throws(CheckInCodeError) {
        guard bytes.count == Self.length else { throw .invalidVenueKeyLength(bytes.count) }
        self.venue = venue
        self.bytes = bytes
    }

    /// Derives `venue`'s key from the master secret:
    /// HKDF-SHA256(IKM: secret, salt: "QRCHECKIN-V1", info: "VENUE-KEY:" ‖ venue, L: 32).
    public init(deriving secret: MasterSecret, for venue: VenueID, authenticator: any MessageAuthenticator) {
        self.venue = venue
        bytes = HKDF(authenticator: authenticator).deriveKey(
            inputKeyMaterial: secret.bytes, salt: Self.salt,
            info: Self.infoPrefix + Array(venue.rawValue.utf8), length: Self.length)
    }

    public var description: String { "VenueSigningKey(\(venue), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["venue": venue]) }
}
