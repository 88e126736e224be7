/// The token in a check-in URL, byte by byte as docs/TOKEN.md specifies:
/// `"1"` (format version) + base32(counter: Int64 BE ‖ sequence: UInt32 BE ‖ MAC: 13 bytes).
public struct CheckInToken: Equatable, Sendable {
    /// The format version character this build writes and reads.
    public static let version: Character = "1"
    /// `version` as its ASCII byte (a Character's `asciiValue` goes through String machinery).
    static let versionByte = UInt8(ascii: "1")
    /// Truncated MAC length: 104 bits, above the 80-bit floor, and 25 payload bytes base32-encode
    /// to exactly 40 characters.
    public static let macLength = 13
    /// Payload bytes before base32: counter (8) + sequence (4) + MAC (13).
    static let payloadLength = 8 + 4 + macLength
    /// Characters in a token: the version plus 40 base32 characters.
    public static let length = 1 + payloadLength / 5 * 8

    /// The window counter, ⌊t / period⌋.
    public let window: Int64
    /// The forced-refresh sequence number within the window (0 for the regular code).
    public let sequence: UInt32
    /// The truncated HMAC-SHA256.
    public let mac: [UInt8]

    /// Assembles a token from its fields.
    public init(window: Int64, sequence: UInt32, mac: [UInt8]) {
        precondition(mac.count == Self.macLength)
        self.window = window
        self.sequence = sequence
        self.mac = mac
    }

    /// The token's text: only digits and A–Z, so the URL stays in QR's alphanumeric mode.
    public var text: String {
        var payload = [UInt8]()
        payload.reserveCapacity(Self.payloadLength)
        payload += BigEndian.bytes(UInt64(bitPattern: window))
        payload += BigEndian.bytes(sequence)
        payload += mac
        return String(Self.version) + Base32.encode(payload)
    }

    /// Why a text is not a token of this format.
    public enum ParseError: Error, Equatable, Sendable {
        /// Not a token at all: wrong length or characters.
        case malformed
        /// Looks like a token but of a version this build does not know.
        case unknownVersion
    }

    /// Parses `text`; the version is checked first so a future format gets the right reason.
    public init(parsing text: String) throws(ParseError) {
        let utf8 = Substring(text).utf8
        guard let first = utf8.first else { throw .malformed }
        guard first == Self.versionByte else {
            // Any future version will also be digits and A–Z only (to stay in QR's compact mode).
            let isAlphanumeric = utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
            }
            throw isAlphanumeric ? .unknownVersion : .malformed
        }
        guard utf8.count == Self.length, let payload = Base32.decode(utf8.dropFirst()) else { throw .malformed }
        window = Int64(bitPattern: BigEndian.uint64(payload[0..<8]))
        sequence = UInt32(truncatingIfNeeded: BigEndian.uint64(payload[8..<12]))
        mac = Array(payload[12...])
    }
}

/// Big-endian integer bytes, the network order every field of the format uses.
enum BigEndian {
    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
    }

    static func bytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
    }

    static func uint64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Initialises `count` bytes of `buffer` at `index` with the top `count` bytes of `value`
    /// (big-endian); returns the index after them.
    static func write(_ value: UInt64, to buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int, count: Int = 8) -> Int {
        for offset in 0..<count {
            buffer.initializeElement(at: index + offset, to: UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * offset)))
        }
        return index + count
    }
}
