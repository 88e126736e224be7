import SharedDomain
import SharedSystem

/// An account's TOTP secret as the ledger keeps it: sealed with libsodium's secretbox under a
/// key only the server's secret derives (`SecondFactorKeys`), bound to the account's name.
/// `version ‖ nonce ‖ authenticator ‖ ciphertext`: 1 + 24 + 16 + 20 = 61 bytes, 122 hex digits.
public struct SealedTOTPSecret: Hashable, Sendable {
    /// The format's first byte (a future format gets another).
    public static let version: UInt8 = 1

    /// The sealed bytes.
    public let bytes: [UInt8]

    /// Wraps stored bytes: the version byte and at least a box's nonce and authenticator.
    public init(bytes: [UInt8]) throws(SecondFactorError) {
        guard bytes.count >= 1 + SecretBox.nonceLength + SecretBox.macLength, bytes[0] == Self.version else {
            throw .malformedSealedSecret
        }
        self.bytes = bytes
    }

    /// A box `SecretBox.seal` just made, in this format.
    init(box: [UInt8]) {
        bytes = [Self.version] + box
    }

    /// Wraps the ledger's text (`hex`).
    public init(hex: String) throws(SecondFactorError) {
        guard let bytes = Hex.decode(hex) else { throw .malformedSealedSecret }
        try self.init(bytes: bytes)
    }

    /// Lower-case hex: what a text column keeps (the same in SQLite and PostgreSQL).
    public var hex: String { Hex.encode(bytes) }
}
