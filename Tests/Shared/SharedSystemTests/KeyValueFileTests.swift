import SharedSystem
import Testing

@Suite struct KeyValueFileTests {
    @Test func parsesKeysValuesAndLineNumbersIgnoringCommentsAndBlanks() throws {
        let entries = try KeyValueFile.parse("# head\n\nvenue = HALL-1\r\n  period=30  \nbase-url = HTTPS://A.B/C=D\n")
        #expect(entries == [
            KeyValueFile.Entry(key: "venue", value: "HALL-1", line: 3),
            KeyValueFile.Entry(key: "period", value: "30", line: 4),
            KeyValueFile.Entry(key: "base-url", value: "HTTPS://A.B/C=D", line: 5),
        ])
    }

    @Test(arguments: [("venue HALL\n", 1, "expected 'key = value'"), ("a = 1\n = 2\n", 2, "missing key")])
    func namesTheLineOfASyntaxError(text: String, line: Int, message: String) {
        do {
            _ = try KeyValueFile.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line && error.message.contains(message))
        }
    }

    @Test func aLineThatIsNotKeyValueIsNeverQuoted() {
        // `status -c /etc/qrcheckin/secret` printed the key: "expected 'key = value', got '9dc1…'".
        let secret = "9dc17ab3" + String(repeating: "0123456789abcdef", count: 3) + "01234567"
        let venueKey = "QRCHECKIN-VENUE-KEY-1 HALL-1 " + secret
        for (text, words) in [(secret + "\n", "looks like a secret or key file"), (venueKey + "\n", "looks like a secret or key file"),
                              ("period = 15\nvenue HALL-1\n", "has no '='")] {
            do {
                _ = try KeyValueFile.parse(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.contains(words), "\(error.message)")
                #expect(!error.message.contains("9dc1") && !error.message.contains("HALL-1") && !error.message.contains("0123"))
            }
        }
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
        // It made the first key "\u{FEFF}venue": unknown, with an invisible character in the message.
        #expect(try KeyValueFile.parse("\u{FEFF}venue = HALL-1\n") == [KeyValueFile.Entry(key: "venue", value: "HALL-1", line: 1)])
        #expect(try KeyValueFile.parse("\u{FEFF}# comment\r\nvenue = A\r\n") == [KeyValueFile.Entry(key: "venue", value: "A", line: 2)])
    }

    @Test(arguments: [("\u{0B}", "a vertical tab (U+000B)"), ("\u{0C}", "a form feed (U+000C)"),
                      ("\u{2028}", "a line separator (U+2028)"), ("\u{2029}", "a paragraph separator (U+2029)"),
                      ("\u{85}", "a next-line character (U+0085)"), ("\r", "a carriage return (U+000D)"),
                      ("\u{1B}[2J", "an escape character (U+001B)"), ("\u{0}", "a NUL byte (U+0000)"),
                      ("\u{7F}", "a control character (U+007F)")])
    func onlyANewlineEndsALineAndOtherControlCharactersAreErrors(separator: String, name: String) {
        // `period = 15⟨U+2028⟩venue = ZED` silently set venue ZED: Swift's isNewline split there.
        let text = "# qrcheckin\nperiod = 15" + separator + "venue = ZED\n"
        do {
            let entries = try KeyValueFile.parse(text)
            Issue.record("accepted: \(entries)")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.hasPrefix(name + " at column 12: only a newline ends a line"), "\(error.message)")
            #expect(!error.message.contains("ZED"))
        }
    }

    @Test func tabsAndCRLFLineEndsStayAllowed() throws {
        #expect(try KeyValueFile.parse("venue\t=\tA\r\n\tperiod = 30\r\n") == [
            KeyValueFile.Entry(key: "venue", value: "A", line: 1), KeyValueFile.Entry(key: "period", value: "30", line: 2),
        ])
    }
}
