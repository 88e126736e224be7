/// The shared secret every venue key is derived from. It never shows itself: `print`, string
/// interpolation, `dump` and debuggers see only its length.
public struct MasterSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Fewer bytes than this are too easy to guess (128 bits).
    public static let minimumLength = 16
    /// More bytes than this are surely a wrong file, not a secret.
    public static let maximumLength = 1024
    /// What `keygen` makes: 256 bits, the HMAC-SHA256 key size.
    public static let generatedLength = 32

    /// The secret bytes; `package` so only this package's layers can read them.
    package let bytes: [UInt8]

    /// Wraps `bytes`, refusing too short or too long secrets.
    public init(bytes: [UInt8]) throws(CheckInCodeError) {
        guard (Self.minimumLength...Self.maximumLength).contains(bytes.count) else {
            throw .invalidSecretLength(bytes.count)
        }
        self.bytes = bytes
    }

    /// How many bytes the secret has; safe to show.
    public var count: Int { bytes.count }

    public var description: String { "MasterSecret(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": bytes.count]) }
}
