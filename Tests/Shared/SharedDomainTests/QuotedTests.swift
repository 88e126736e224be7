import SharedDomain
import Testing

@Suite struct QuotedTests {
    @Test func quotesPlainTextAsItIs() {
        #expect(Quoted("HALL-1").description == "'HALL-1'")
        #expect(Quoted("안녕 하세요").description == "'안녕 하세요'")
        #expect(Quoted("").description == "''")
    }

    @Test func escapesControlAndInvisibleCharacters() {
        #expect(Quoted("a\u{1B}[31mred").description == "'a\\u{001B}[31mred'")
        #expect(Quoted("a\tb\nc\rd\\e").description == "'a\\tb\\nc\\rd\\\\e'")
        #expect(Quoted("x\u{2028}y\u{85}z\u{FEFF}\u{202E}\u{A0}\u{0}").description
            == "'x\\u{2028}y\\u{0085}z\\u{FEFF}\\u{202E}\\u{00A0}\\u{0000}'")
        #expect(Quoted("\u{7F}\u{9B}").description == "'\\u{007F}\\u{009B}'")
    }

    @Test func cutsLongTextAndSaysHowLongItWas() {
        let quoted = Quoted(String(repeating: "x", count: 5000)).description
        #expect(quoted == "'" + String(repeating: "x", count: Quoted.limit) + "…' (5000 characters)")
        #expect(Quoted(String(repeating: "y", count: Quoted.limit)).description == "'" + String(repeating: "y", count: Quoted.limit) + "'")
    }

    @Test func neverShowsWhatLooksLikeKeyMaterial() {
        let secret = String(repeating: "9dc17ab3", count: 8)
        #expect(Quoted(secret).description == "(64 characters not shown: they look like a secret key)")
        #expect(Quoted("HALL-1 " + secret.prefix(32)).description == "(39 characters not shown: they look like a secret key)")
        #expect(Quoted("1ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGH").description.hasPrefix("'1ABC"))
    }

    @Test func escapingAWholeMessageKeepsBackslashesAndNonASCIIText() {
        #expect(Quoted.escaping("cannot open /tmp/a\u{1B}]0;x\u{7}: 없음 'q\\u{001B}'")
            == "cannot open /tmp/a\\u{001B}]0;x\\u{0007}: 없음 'q\\u{001B}'")
    }
}
