import SharedDomain

/// The shared secret of one account's authenticator (RFC 6238's "K"). It never shows itself:
/// `print`, interpolation, `dump` and debuggers see only its length. Kept in the ledger only
/// sealed (`TOTPSecretSealer`).
public struct TOTPSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What `generate` makes: 160 bits, HMAC-SHA1's output size (RFC 4226 §4 recommends it),
    /// and what authenticator apps expect.
    public static let generatedLength = 20
    /// The lengths read (RFC 4226 §4: at least 128 bits; longer secrets exist in the wild).
    public static let readableLengths = 16...64

    /// The secret bytes; `package` so only this package's layers can read them.
    package let bytes: [UInt8]

    /// Wraps `bytes`, refusing lengths outside `readableLengths`.
    public init(bytes: [UInt8]) throws(SecondFactorError) {
        guard Self.readableLengths.contains(bytes.count) else { throw .secretLength(bytes.count) }
        self.bytes = bytes
    }

    /// The secret whose base32 is `text` (either case, spaces ignored), as an authenticator
    /// app or `pyotp` shows it.
    public init(base32 text: String) throws(SecondFactorError) {
        guard let bytes = try OATH.bytes(base32: text) else { throw .invalidBase32 }
        try self.init(bytes: bytes)
    }

    /// A new secret: `generatedLength` bytes of `random` (the OS's CSPRNG: `SecureRandom.bytes`).
    public static func generate(random: (Int) -> [UInt8]) -> TOTPSecret {
        let bytes = random(generatedLength)
        precondition(bytes.count == generatedLength, "the random source gave \(bytes.count) bytes")
        return TOTPSecret(unchecked: bytes)
    }

    private init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The secret as base32 without padding (32 characters for 20 bytes): what the `otpauth`
    /// URI carries and what a person types into an app that cannot scan.
    public func base32() throws(SecondFactorError) -> String {
        try OATH.base32(bytes)
    }

    public var description: String { "TOTPSecret(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": bytes.count]) }
}
