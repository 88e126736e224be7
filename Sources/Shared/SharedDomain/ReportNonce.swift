/// A report's nonce: 16 random bytes, sent as 32 lower-case hex digits. It makes every report's
/// signature unique (a server refuses one it has seen), and the server's answer is signed over
/// it, so an answer belongs to exactly one report.
public struct ReportNonce: Hashable, Sendable, CustomStringConvertible {
    /// Random bytes in a nonce.
    public static let byteCount = 16

    /// The 32 lower-case hex digits, as sent and signed.
    public let text: String

    /// The nonce of `bytes` (16 of them: from the OS's CSPRNG).
    public init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount, "a report nonce is 16 bytes")
        text = Hex.encode(bytes)
    }

    /// The nonce spelled `text`, or nil unless it is exactly 32 lower-case hex digits (one
    /// spelling per nonce: a signed text cannot be respelled).
    public init?(text: String) {
        guard text.utf8.count == Self.byteCount * 2,
              text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        self.text = text
    }

    public var description: String { text }
}
