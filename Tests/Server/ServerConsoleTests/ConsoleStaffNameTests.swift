import ServerConsole
import ServerDomain
import ServerHTTPTypes
import SharedDomain
import Testing

/// The console's staff check-in keeps a visitor's name by the visitor form's rule
/// (`Visitor.acceptableName`): trimmed, 1-64 characters, no control or format character.
struct ConsoleStaffNameTests {
    /// Posts the staff check-in form with `name`; returns the response.
    static func checkIn(_ fixture: ConsoleFixture, cookie: String, name: String) async throws -> HTTPResponse {
        let form = await fixture.send(HTTPRequest(method: "GET", path: "/admin/checkin", cookies: ["qrcheckin_console": cookie]))
        let token = try await #require(ConsoleFixture.formToken(form))
        return await fixture.send(HTTPRequest(method: "POST", path: "/admin/checkin", cookies: ["qrcheckin_console": cookie],
                                        form: ["form-token": token, "venue": "HALL-1", "name": name]))
    }

    @Test(arguments: ["\u{202E}gnp.exe", "a\u{2066}b\u{2069}", "zero\u{200B}width", "\u{200B}", "tab\there", "\u{1B}[2J", String(repeating: "x", count: 65)])
    func aNameTheVisitorFormRefusesIsRefused(_ name: String) async throws {
        let fixture = await ConsoleFixture()
        let cookie = await fixture.signIn("steward").cookie!
        let response = try await Self.checkIn(fixture, cookie: cookie, name: name)
        #expect(response.status == 400, "\(Quoted(name)): \(response.status)")
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0, "nothing recorded")
    }

    @Test(arguments: [" Kim", "Kim ", "\u{3000}Kim", "\tKim\t"])
    func aNameIsKeptTrimmedAsTheFormKeepsIt(_ typed: String) async throws {
        let fixture = await ConsoleFixture()
        let cookie = await fixture.signIn("steward").cookie!
        let response = try await Self.checkIn(fixture, cookie: cookie, name: typed)
        #expect(response.status == 303, "\(Quoted(typed)): \(response.status)")
        var names: [String?] = []
        try await fixture.ledger.eachCheckIn(CheckInQuery()) { names.append($0.entry.visitor?.name); return true }
        #expect(names == ["Kim"])
    }

    @Test func oneRuleForEveryName() {
        #expect(Visitor.acceptableName("  김민지 ") == "김민지")
        #expect(Visitor.acceptableName("\u{202E}x") == nil && Visitor.acceptableName("   ") == nil && Visitor.acceptableName("") == nil)
        #expect(Visitor.acceptableName(String(repeating: "가", count: 64)) != nil && Visitor.acceptableName(String(repeating: "가", count: 65)) == nil)
    }
}
