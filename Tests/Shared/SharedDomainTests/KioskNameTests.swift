import SharedDomain
import Testing

/// The names a report and a request line carry: kiosks, operators, actors.
@Suite struct KioskNameTests {
    @Test(arguments: ["door-1", "kiosk.hall-1.example.org", "K", "a_b", String(repeating: "x", count: 64)])
    func kioskNamesAccepted(text: String) throws {
        #expect(try KioskName(text).rawValue == text)
    }

    @Test(arguments: [("", "empty"), ("-door", "start with"), (".door", "start with"), ("door 1", "only letters"),
                      ("문-1", "only letters"), (String(repeating: "x", count: 65), "longer than 64")])
    func kioskNamesRefused(text: String, words: String) {
        #expect(throws: KioskNameError.self) { try KioskName(text) }
        do { _ = try KioskName(text) } catch { #expect(error.description.contains(words), "\(error)") }
    }

    @Test func operatorNamesAreTheConsolesAccountNames() {
        #expect(OperatorName("mina@example.org") != nil)
        #expect(OperatorName("mina kim") == nil)
        #expect(OperatorName("") == nil)
        #expect(OperatorName(String(repeating: "m", count: 65)) == nil)
        #expect(OperatorName("mina\u{1B}[2J") == nil)
    }

    @Test func actorsAreLocalOrConsoleWithAnOptionalName() {
        #expect(ModeActor(word: "console:mina") == ModeActor(source: .console, name: OperatorName("mina")))
        #expect(ModeActor(word: "local") == ModeActor(source: .local, name: nil))
        #expect(ModeActor(word: "daemon") == nil, "only the daemon itself records that source")
        #expect(ModeActor(word: "console:") == nil)
        #expect(ModeActor(word: "console:mina:x") == nil)
        #expect(ModeActor(source: .console, name: OperatorName("mina")).description == "console:mina")
    }
}
