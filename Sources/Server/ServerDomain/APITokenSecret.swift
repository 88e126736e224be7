/// The secret of an API token as its holder sends it (`Authorization: Bearer qrc_…`): `qrc_` and
/// 64 hex digits of 32 random bytes. The prefix lets a secret scanner (and a reader of a leaked
/// log) tell what it is; the ledger keeps only its hash. The randomness and the hash are the
/// caller's (libsodium in the composition root): this type only spells and reads the text.
public struct APITokenSecret: Hashable, Sendable, CustomStringConvertible {
    /// What every secret begins with.
    public static let prefix = "qrc_"
    /// Random bytes a secret is made of.
    public static let byteCount = 32

    /// The whole text sent.
    public let text: String

    /// The secret of `bytes` (`byteCount` random bytes).
    public init(random bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount, "a token's secret is \(Self.byteCount) random bytes")
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for byte in bytes { hex += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        text = Self.prefix + String(decoding: hex, as: UTF8.self)
    }

    /// The secret `text` spells; nil when it has not the shape of one (then no lookup is made).
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        let prefix = Array(Self.prefix.utf8)
        guard utf8.count == prefix.count + 2 * Self.byteCount, Array(utf8.prefix(prefix.count)) == prefix,
              utf8.dropFirst(prefix.count).allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        self.text = String(text)
    }

    /// The hash the ledger keeps, as hex: `digest` (a one-way hash, BLAKE2b in the server) of the text.
    public func hash(_ digest: ([UInt8]) -> [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for byte in digest(Array(text.utf8)) { hex += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Never the secret: a log line or an error message that prints a secret by mistake shows this.
    public var description: String { Self.prefix + "…" }
}
