import SharedDomain

/// What the ledger keeps of one recovery code: its HMAC-SHA256 under the server's recovery-code
/// key, bound to the account (`RecoveryCodeHasher`), as 64 lower-case hex digits. One row per
/// unused code; using a code deletes its row.
public struct RecoveryCodeHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash as hex.
    public let hex: String

    /// The ledger's text; nil unless it is 64 hex digits.
    public init?(hex: String) {
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
        self.hex = Hex.encode(bytes)
    }

    /// The hash of 32 bytes.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "an HMAC-SHA256")
        hex = Hex.encode(bytes)
    }

    /// The hash's bytes, for a constant-time compare.
    var bytes: [UInt8] { Hex.decode(hex)! }

    public var description: String { hex }
}
