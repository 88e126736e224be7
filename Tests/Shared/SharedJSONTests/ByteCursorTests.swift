import SharedJSON
import Testing

@Suite struct ByteCursorTests {
    static let edges: [Int64] = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 113_333_333, 1_700_000_000,
                                 Int64(Int32.max), -1, -9, -10, -100, -1_800_000_000_123, .max, .min]

    @Test(arguments: edges)
    func writesDecimalsAsStringDoes(value: Int64) {
        var out = [UInt8]()
        out.append(capacity: ByteCursor.maximumDecimalLength) { $0.write(value) }
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func writesEveryPieceInOrder() {
        var out = Array("x".utf8)
        out.append(capacity: 64) { cursor in
            cursor.write("{\"a\":")
            cursor.write(-42)
            cursor.write(byte: UInt8(ascii: ","))
            cursor.write(utf8: "현규")
            cursor.write([0x21, 0x7D])
        }
        #expect(String(decoding: out, as: UTF8.self) == "x{\"a\":-42,현규!}")
    }

    /// RFC 8259's escapes below U+0020, and DEL, C1 controls and bidirectional controls escaped
    /// too (a terminal showing the document must not act on them); everything else as it is.
    @Test func stringsEscapeEveryControlAndBidirectionalCharacter() throws {
        let cases: [(String, String)] = [
            ("a\u{1B}[2Jb\u{07}\u{0}", #""a\u001b[2Jb\u0007\u0000""#),
            ("tab\tcr\rlf\n\"q\" \\", #""tab\tcr\rlf\n\"q\" \\""#),
            ("del\u{7F} csi\u{9B}31m nel\u{85}", #""del\u007f csi\u009b31m nel\u0085""#),
            ("\u{202E}gnp.exe \u{2066}x\u{2069} \u{202A}", #""\u202egnp.exe \u2066x\u2069 \u202a""#),
            // Their neighbours stay: a no-break space, ©, …, LRM (U+200E), the line separator, U+2065, U+206A, Hangul.
            ("\u{A0}© …\u{200E}\u{2028}\u{2065}\u{206A} 김민지", "\"\u{A0}© …\u{200E}\u{2028}\u{2065}\u{206A} 김민지\""),
        ]
        for (text, json) in cases {
            var out = [UInt8]()
            out.append(capacity: ByteCursor.maximumJSONLength(of: text)) { $0.write(jsonString: text) }
            #expect(String(decoding: out, as: UTF8.self) == json)
            #expect(try JSONParser.parse(json) == .string(text), "decodes to the text it was")
        }
    }
}
