/// A write position in a buffer sized beforehand: text, bytes and decimal numbers go in with one
/// bounds check each and no capacity growth, for outputs built once per line or per rotation
/// (`verify --stdin`, `current.json`). Writing past the end stops the program, never corrupts.
public struct ByteCursor {
    /// Where the next byte goes.
    public private(set) var position: UnsafeMutablePointer<UInt8>
    private let end: UnsafeMutablePointer<UInt8>

    /// A cursor at the start of `buffer`.
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        position = buffer.baseAddress!
        end = buffer.baseAddress! + buffer.count
    }

    private mutating func room(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(end - position >= count, "ByteCursor: buffer too small")
        defer { position += count }
        return position
    }

    /// Writes one byte.
    @inline(__always)
    public mutating func write(byte: UInt8) {
        room(1).pointee = byte
    }

    /// Writes a literal's UTF-8 bytes.
    @inline(__always)
    public mutating func write(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        room(count).update(from: text.utf8Start, count: count)
    }

    /// Writes `bytes` as they are.
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        room(bytes.count).update(from: base, count: bytes.count)
    }

    /// Writes `bytes` as they are.
    public mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes a String's UTF-8 bytes as they are (no escaping: for text known to need none).
    public mutating func write(utf8 text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes `value` in decimal, `-` first when negative: two digits a step from a table.
    public mutating func write(_ value: Int64) {
        if value < 0 { write(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude  // UInt64: Int64.min has no positive Int64
        var digits = 1
        var probe = magnitude
        while probe >= 100 {
            probe /= 100
            digits += 2
        }
        if probe >= 10 { digits += 1 }
        var digit = room(digits) + digits
        Self.pairs.withUTF8Buffer { pairs in
            while magnitude >= 100 {
                let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
                magnitude /= 100
                digit -= 2
                digit[0] = pairs[pair]
                digit[1] = pairs[pair &+ 1]
            }
            if magnitude >= 10 {
                let pair = Int(truncatingIfNeeded: magnitude) &* 2
                digit -= 2
                digit[0] = pairs[pair]
                digit[1] = pairs[pair &+ 1]
            } else {
                digit -= 1
                digit.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude)
            }
        }
    }

    /// "00" to "99".
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The most bytes `write(_: Int64)` writes.
    public static let maximumDecimalLength = 20

    /// The most bytes `write(jsonString:)` writes for `text`: quotes, every byte a `\u00XX`.
    public static func maximumJSONLength(of text: String) -> Int { 2 + 6 * text.utf8.count }

    /// Writes `text` as a JSON string: quotes, `\"` `\\` `\n` `\r` `\t`, other control
    /// characters as `\u00XX` (lower-case hex), everything else (UTF-8 included) as it is,
    /// runs of plain bytes copied whole. Room: `maximumJSONLength(of:)`.
    ///
    /// RFC 8259 requires escapes only below U+0020 but allows them for any character: DEL, the
    /// C1 controls (U+0080–U+009F) and the bidirectional embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069) are escaped too (`\u202e`), so a document shown on a
    /// terminal (`jq`, `cat`) carries no control sequence and no reordered text, whatever it holds.
    public mutating func write(jsonString text: String) {
        write(byte: UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var run = 0  // start of the pending run of plain bytes
            // 0xC2 and 0xE2 lead the escaped characters above DEL (and many others, which
            // `escapedAbove7E` lets through); continuation bytes never match.
            for (index, byte) in bytes.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2 || byte == 0xE2 {
                let scalar: UInt32
                if byte < 0x7F {
                    scalar = UInt32(byte)
                } else {
                    guard let escaped = Self.escapedAbove7E(bytes, at: index) else { continue }  // a ©, a … goes as it is
                    scalar = escaped
                }
                write(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + (scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : 3)
                write(byte: UInt8(ascii: "\\"))
                switch scalar {
                case 0x22: write(byte: UInt8(ascii: "\""))
                case 0x5C: write(byte: UInt8(ascii: "\\"))
                case 0x0A: write(byte: UInt8(ascii: "n"))
                case 0x0D: write(byte: UInt8(ascii: "r"))
                case 0x09: write(byte: UInt8(ascii: "t"))
                default:  // \u and four lower-case hex digits
                    write(byte: UInt8(ascii: "u"))
                    Self.hexDigits.withUTF8Buffer { hex in
                        for shift: UInt32 in [12, 8, 4, 0] { write(byte: hex[Int(scalar >> shift & 0xF)]) }
                    }
                }
            }
            write(UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        write(byte: UInt8(ascii: "\""))
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// The scalar starting at `bytes[index]` (valid UTF-8) when it is DEL, a C1 control or a
    /// bidirectional control: escaped although RFC 8259 would allow it raw; nil otherwise.
    private static func escapedAbove7E(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        let byte = bytes[index]
        if byte == 0x7F { return 0x7F }
        if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return UInt32(bytes[index + 1]) }
        guard byte == 0xE2, index + 2 < bytes.count else { return nil }
        let scalar = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        return (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) ? scalar : nil
    }
}

extension Array where Element == UInt8 {
    /// Appends what `body` writes through a cursor into at most `capacity` bytes, in one copy.
    public mutating func append(capacity: Int, _ body: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var cursor = ByteCursor(buffer)
            body(&cursor)
            append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.position - buffer.baseAddress!))
        }
    }
}
