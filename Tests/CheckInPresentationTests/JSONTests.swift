import CheckInJSON
import Testing

@Suite struct JSONTests {
    @Test func roundTripsWhatTheDaemonWrites() throws {
        let value = JSONValue.object([
            ("s", .string("12현34규 \"quoted\" back\\slash\n\u{1}")), ("n", .number(-1_800_000_000_123)),
            ("b", .bool(true)), ("z", .null), ("a", .array([.number(1), .string("x")])), ("o", .object([])),
        ])
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(value.serialized.contains("12현34규"), "UTF-8 is kept, not escaped")
    }

    @Test(arguments: [
        ("", "unexpected end"), ("{", "expected a key"), ("{\"a\" 1}", "expected :"), ("[1,]", "expected a value"),
        ("\"abc", "unterminated string"), ("\"a\u{1}\"", "control character"), ("1.5", "unexpected text"),
        ("{} x", "unexpected text"), ("\"\\q\"", "invalid escape"), ("\"\\ud800\"", "expected \\u"),
        ("tru", "expected true"), (String(repeating: "[", count: 40), "nested too deeply"),
    ])
    func refusesBrokenJSONSayingWhere(text: String, message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(message), "\(text): \(error.message)")
        }
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\u00e9\ud83d\ude00\/\t""#) == .string("é😀/\t"))
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }
}
