/// RFC 4648 base32 (`A–Z 2–7`, no padding) for byte counts that are multiples of 5.
///
/// Its alphabet lies inside QR's alphanumeric set, so tokens stay in the compact mode, and every
/// language's standard library decodes it. Whole 5-byte groups mean every character carries
/// exactly 5 bits: no padding bits, so no two spellings decode to the same bytes.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Encodes `bytes` (a multiple of 5 long).
    static func encode(_ bytes: [UInt8]) -> String {
        precondition(bytes.count % 5 == 0, "whole 5-byte groups only")
        var output = [UInt8]()
        output.reserveCapacity(bytes.count / 5 * 8)
        var index = 0
        while index < bytes.count {
            var group: UInt64 = 0
            for byte in bytes[index..<(index + 5)] { group = group << 8 | UInt64(byte) }
            for shift in stride(from: 35, through: 0, by: -5) {
                output.append(alphabet[Int(group >> UInt64(shift) & 31)])
            }
            index += 5
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a multiple-of-8-characters string; nil on any other character or length.
    static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        guard text.count % 8 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count / 8 * 5)
        var group: UInt64 = 0
        var count = 0
        for character in text {
            guard let value = value(of: character) else { return nil }
            group = group << 5 | UInt64(value)
            count += 1
            if count == 8 {
                for shift in stride(from: 32, through: 0, by: -8) { bytes.append(UInt8(group >> UInt64(shift) & 0xFF)) }
                group = 0
                count = 0
            }
        }
        return bytes
    }

    /// Decodes `text` (8 characters per 5 bytes) into `output`, which must have room; false on
    /// any character outside the alphabet or a length that is not a multiple of 8. No allocation;
    /// a group of 8 characters at a time, one table load each (a verifier decodes every token).
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard text.count % 8 == 0, text.count / 8 * 5 <= output.count else { return false }
        guard var input = text.baseAddress, var out = output.baseAddress else { return text.isEmpty }
        return digits.withUnsafeBufferPointer { digits in
            var seen: UInt8 = 0  // every digit or'ed: its high bit is set once a character was outside
            for _ in 0..<(text.count / 8) {
                var group: UInt64 = 0
                for index in 0..<8 {
                    let digit = digits[Int(input[index])]
                    seen |= digit
                    group = group << 5 | UInt64(digit & 31)
                }
                out[0] = UInt8(truncatingIfNeeded: group >> 32)
                out[1] = UInt8(truncatingIfNeeded: group >> 24)
                out[2] = UInt8(truncatingIfNeeded: group >> 16)
                out[3] = UInt8(truncatingIfNeeded: group >> 8)
                out[4] = UInt8(truncatingIfNeeded: group)
                input += 8
                out += 5
            }
            return seen & 0x80 == 0
        }
    }

    /// Character → its 5-bit value, or 0x80 for characters outside the alphabet.
    private static let digits: [UInt8] = (0..<256).map { byte in
        alphabet.firstIndex(of: UInt8(byte)).map { UInt8($0) } ?? 0x80
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): character - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
