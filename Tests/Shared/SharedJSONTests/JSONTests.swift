import SharedJSON
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

    @Test func readsIntegersAtTheEdgesOfInt64() throws {
        #expect(try JSONParser.parse("[-9223372036854775808,9223372036854775807,0,-0,42]")
            == .array([.number(.min), .number(.max), .number(0), .number(0), .number(42)]))
        for text in ["9223372036854775808", "-9223372036854775809", "-", "99999999999999999999"] {
            #expect(throws: JSONParser.Failure.self, "\(text)") { try JSONParser.parse(text) }
        }
    }

    @Test func keepsTextAroundEscapesAndNonASCII() throws {
        let text = #"{"a":"plain 현규","b":"x\\y\"z\u0041 현\n","c":""}"#
        #expect(try JSONParser.parse(text)
            == .object([("a", .string("plain 현규")), ("b", .string("x\\y\"zA 현\n")), ("c", .string(""))]))
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }  // after an escape
    }
}
