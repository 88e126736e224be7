import ServerConsole
import ServerDomain
import ServerHTTPTypes
import Testing

/// The route × role table, walked for every page and every role, in the table and through the site.
struct ConsoleAccessTests {
    static let expected: [ConsolePage: ConsoleRole?] = [
        .login: nil, .verify: nil, .logout: .steward, .dashboard: .steward, .inside: .steward, .checkin: .steward, .checkout: .steward, .account: .steward,
        .log: .supervisor, .export: .supervisor, .erase: .supervisor, .users: .admin, .tokens: .admin, .audit: .admin, .kiosks: .steward,
        .webhooks: .admin,
    ]

    @Test func everyPageHasItsMinimumRole() {
        for page in ConsolePage.allCases {
            #expect(ConsoleAccess.minimumRole[page] == Self.expected[page]!, "\(page)")
            for role in [nil] + ConsoleRole.allCases.map(Optional.some) {
                let decision = ConsoleAccess.decide(page, role: role)
                guard let needed = Self.expected[page]! else {
                    #expect(decision == .allowed)
                    continue
                }
                #expect(decision == (role == nil ? .signInFirst : role! >= needed ? .allowed : .forbidden), "\(page) as \(String(describing: role))")
            }
        }
    }

    @Test func theSiteAnswersEveryPageForEveryRoleAsTheTableSays() async {
        let fixture = await ConsoleFixture()
        var cookies: [ConsoleRole: String] = [:]
        for role in ConsoleRole.allCases { cookies[role] = await fixture.signIn(role.rawValue).cookie! }
        for page in ConsolePage.allCases where page != .login && page != .logout && page != .verify {
            for role in [nil] + ConsoleRole.allCases.map(Optional.some) {
                let cookie = role.map { ["qrcheckin_console": cookies[$0]!] } ?? [:]
                let response = await fixture.send(HTTPRequest(method: "GET", path: page.path, cookies: cookie))
                let expected = role == nil ? 303 : role! >= Self.expected[page]!! ? 200 : 403
                #expect(response.status == expected, "GET \(page.path) as \(String(describing: role)): \(response.status)")
                if role == nil { #expect(response.header("Location") == "/admin/login") }
            }
        }
    }

    @Test func aPostWithoutOrWithAStaleFormTokenChangesNothing() async throws {
        let fixture = await ConsoleFixture()
        let old = await fixture.signIn("admin").cookie!
        let oldToken = try await #require(ConsoleFixture.formToken(await fixture.send(HTTPRequest(method: "GET", path: "/admin/users", cookies: ["qrcheckin_console": old]))))
        let cookie = await fixture.signIn("admin").cookie!
        let add = ["action": "add", "name": "mallory", "role": "admin", "password": "long-enough"]
        for form in [add, add.merging(["form-token": oldToken]) { $1 }, add.merging(["form-token": ""]) { $1 }] {
            let response = await fixture.send(HTTPRequest(method: "POST", path: "/admin/users", cookies: ["qrcheckin_console": cookie], form: form))
            #expect(response.status == 403)
        }
        #expect(try await fixture.ledger.account(named: "mallory") == nil)
        let token = try await #require(ConsoleFixture.formToken(await fixture.send(HTTPRequest(method: "GET", path: "/admin/users", cookies: ["qrcheckin_console": cookie]))))
        let response = await fixture.send(HTTPRequest(method: "POST", path: "/admin/users", cookies: ["qrcheckin_console": cookie], form: add.merging(["form-token": token]) { $1 }))
        #expect(response.status == 303)
        #expect(try await fixture.ledger.account(named: "mallory")?.role == .admin)
    }
}
