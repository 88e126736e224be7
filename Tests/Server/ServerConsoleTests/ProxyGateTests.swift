import ServerConsole
import ServerDomain
import ServerHTTPTypes
import ServerLedgerTesting
import ServerReports
import SharedDomain
import Testing

/// Sign-in through the venue's proxy (issue 41): the trust list at the HTTP layer, the headers'
/// parsing, groups to roles, the pacing of spoof entries on an injected clock, and the gate
/// the console runs before its access table.
struct ProxyGateTests {
    static let proxy = ProxySignInSettings(roleGroups: [.steward: ["door"], .supervisor: ["leads"], .admin: ["it", "owners"]])

    /// A console over an in-memory ledger signing in through `proxy` (and passwords when `password`).
    struct Fixture {
        let ledger = InMemoryLedger()
        let clock = TestClock()
        let site: ConsoleSite

        init(password: Bool = false) {
            site = ConsoleSite(ConsoleSite.Parts(ledger: ledger, venues: VenueDirectory(), zone: UTCTimeZone(), clock: clock,
                                                 crypto: FakeCrypto.crypto, decoyHash: { "plain:\u{1}" },
                                                 signIn: ConsoleSignInPolicy(password: password, proxy: ProxyGateTests.proxy)))
        }

        /// A request the trusted proxy passed on for `user` in `groups` (the adapter kept the headers).
        func viaProxy(_ path: String, user: String?, groups: String = "", cookie: String? = nil) async -> HTTPResponse {
            var headers: [String: String] = [:]
            if let user { headers["x-auth-request-user"] = user }
            if !groups.isEmpty { headers["x-auth-request-groups"] = groups }
            return await site.respond(to: HTTPRequest(method: "GET", path: path, headers: headers,
                                                      cookies: cookie.map { ["qrcheckin_console": $0] } ?? [:], client: "203.0.113.5"))
        }

        func actions() async throws -> [String] {
            try await ledger.audit(AuditQuery()).reversed().map(\.action.rawValue)
        }
    }

    @Test func theHighestMatchingRoleWinsAndNoMatchGivesNone() {
        #expect(Self.proxy.role(for: ["door"]) == .steward)
        #expect(Self.proxy.role(for: ["door", "owners"]) == .admin)
        #expect(Self.proxy.role(for: ["leads", "door"]) == .supervisor)
        #expect(Self.proxy.role(for: ["guests"]) == nil)
        #expect(Self.proxy.role(for: []) == nil)
    }

    @Test func groupsAreCommaOrSpaceSeparated() {
        #expect(ProxySignInSettings.groups("door,leads") == ["door", "leads"])
        #expect(ProxySignInSettings.groups(" door  leads,\tit ,") == ["door", "leads", "it"])
        #expect(ProxySignInSettings.groups(nil) == [])
        #expect(ProxySignInSettings(userHeader: "X-Remote-User", roleGroups: [:]).userHeader == "x-remote-user")
    }

    @Test func thePacerLetsOneEntryAMinutePerKey() {
        let pacer = AuditPacer(intervalMilliseconds: 60_000, capacity: 2)
        #expect(pacer.note("a", now: 0) == 1)
        #expect(pacer.note("a", now: 1_000) == nil)
        #expect(pacer.note("a", now: 59_999) == nil)
        #expect(pacer.note("b", now: 10_000) == 1, "another address has its own minute")
        #expect(pacer.note("a", now: 60_000) == 3, "the entry counts the two unwritten and this one")
        #expect(pacer.note("a", now: 60_001) == nil)
        #expect(pacer.note("c", now: 70_000) == 1, "a third key forgets the quietest, the table stays bounded")
    }

    @Test func aStewardSignsInThroughTheProxyAndTheAccountIsAdded() async throws {
        let fixture = Fixture()
        let dashboard = await fixture.viaProxy("/admin/", user: "minji", groups: "door")
        #expect(dashboard.status == 200)
        let cookie = try #require(ConsoleFixture.cookie(dashboard, "qrcheckin_console"))
        let account = try #require(try await fixture.ledger.account(named: "minji"))
        #expect(account.signIn == .proxy && account.role == .steward && account.passwordHash.isEmpty)
        #expect(try await fixture.actions() == ["proxy-account-add", "proxy-sign-in"])
        let entries = try await fixture.ledger.audit(AuditQuery())
        #expect(entries.allSatisfy { $0.source == "proxy 203.0.113.5" && $0.actor == "minji" })
        // The same session goes on while the proxy names the same user; the export is a supervisor's.
        let again = await fixture.viaProxy("/admin/", user: "minji", groups: "door", cookie: cookie)
        #expect(again.status == 200 && ConsoleFixture.cookie(again, "qrcheckin_console") == nil)
        #expect(await fixture.viaProxy("/admin/export", user: "minji", groups: "door", cookie: cookie).status == 403)
    }

    @Test func theRoleFollowsTheGroupsAtEachSignIn() async throws {
        let fixture = Fixture()
        #expect(await fixture.viaProxy("/admin/", user: "minji", groups: "door").status == 200)
        let admin = await fixture.viaProxy("/admin/audit", user: "minji", groups: "door owners")
        #expect(admin.status == 200)
        #expect(try await fixture.ledger.account(named: "minji")?.role == .admin)
        #expect(try await fixture.actions() == ["proxy-account-add", "proxy-sign-in", "proxy-role-change", "proxy-sign-in"])
        let change = try #require(try await fixture.ledger.audit(AuditQuery()).first { $0.action == .proxyRoleChange })
        #expect(change.detail == "role admin, was steward")
    }

    @Test func anotherUserOrNoneEndsTheSession() async throws {
        let fixture = Fixture()
        let cookie = try #require(ConsoleFixture.cookie(await fixture.viaProxy("/admin/", user: "minji", groups: "door"), "qrcheckin_console"))
        // Another user: minji's session ends and jisoo signs in.
        let other = await fixture.viaProxy("/admin/", user: "jisoo", groups: "door", cookie: cookie)
        #expect(other.status == 200)
        let jisoo = try #require(ConsoleFixture.cookie(other, "qrcheckin_console"))
        #expect(jisoo != cookie)
        #expect(await fixture.viaProxy("/admin/", user: "minji", groups: "door", cookie: cookie).headers(named: "Set-Cookie")
            .contains { $0.hasPrefix("qrcheckin_console=") && !$0.hasPrefix("qrcheckin_console=;") }, "the old cookie opens nothing: a new sign-in")
        // Nobody: the session ends, and the request is not signed in.
        let nobody = await fixture.viaProxy("/admin/", user: nil, cookie: jisoo)
        #expect(nobody.status == 303)
        #expect(try await fixture.actions().filter { $0 == "sign-out" }.count == 2)
    }

    @Test func groupsThatGiveNoRoleAreRefusedWithAPageThatSaysWhy() async throws {
        let fixture = Fixture()
        let refused = await fixture.viaProxy("/admin/", user: "guest", groups: "visitors")
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("visitors"))
        #expect(try await fixture.ledger.account(named: "guest") == nil)
        _ = await fixture.viaProxy("/admin/", user: "guest", groups: "visitors")
        #expect(try await fixture.actions() == ["sign-in-failed"], "refusals of one user are paced too")
    }

    @Test func aPasswordAccountOfThatNameIsNotTakenOver() async throws {
        let fixture = Fixture()
        _ = try await fixture.ledger.addAccount(ConsoleAccount(name: "admin", role: .admin, passwordHash: "plain:x", created: fixture.clock.now()))
        #expect(await fixture.viaProxy("/admin/", user: "admin", groups: "it").status == 403)
    }

    @Test func spoofedHeadersAreAuditedOnceAMinutePerAddress() async throws {
        let fixture = Fixture()
        let spoof = HTTPRequest(method: "GET", path: "/admin/", client: "127.0.0.2", untrustedIdentity: true)
        for _ in 0..<5 { #expect(await fixture.site.respond(to: spoof).status == 303, "not signed in") }
        #expect(try await fixture.actions() == ["proxy-spoof"])
        fixture.clock.advance(seconds: 61)
        _ = await fixture.site.respond(to: spoof)
        let entries = try await fixture.ledger.audit(AuditQuery())
        #expect(entries.map(\.action) == [.proxySpoof, .proxySpoof])
        #expect(entries.first?.rows == 5, "the four counted since the first entry and this one")
        #expect(entries.first?.source == "console 127.0.0.2")
    }

    @Test func aProxyManagedAccountIsGivenNoPassword() async throws {
        let fixture = Fixture()
        _ = await fixture.viaProxy("/admin/", user: "minji", groups: "door")
        let signedIn = await fixture.viaProxy("/admin/", user: "root", groups: "it")
        let cookie = try #require(ConsoleFixture.cookie(signedIn, "qrcheckin_console"))
        let users = await fixture.viaProxy("/admin/users", user: "root", groups: "it", cookie: cookie)
        #expect(!String(decoding: users.body, as: UTF8.self).contains("value=\"passwd\""), "no password to set for proxy accounts")
        let token = try #require(ConsoleFixture.formToken(users))
        let response = await fixture.site.respond(to: HTTPRequest(
            method: "POST", path: "/admin/users", headers: ["x-auth-request-user": "root", "x-auth-request-groups": "it"],
            cookies: ["qrcheckin_console": cookie], form: ["form-token": token, "name": "minji", "action": "passwd", "password": "long enough password"],
            client: "203.0.113.5"))
        #expect(response.status == 409)
        #expect(try await fixture.ledger.account(named: "minji")?.passwordHash == "")
        #expect(try await fixture.actions().contains("account-changed") == false)
    }

    @Test func withProxyOnlyThePasswordFormIsNotOffered() async throws {
        let proxyOnly = Fixture()
        let page = String(decoding: await proxyOnly.viaProxy("/admin/login", user: nil).body, as: UTF8.self)
        #expect(!page.contains("type=\"password\"") && page.contains("organisation"))
        let both = Fixture(password: true)
        let form = String(decoding: await both.viaProxy("/admin/login", user: nil).body, as: UTF8.self)
        #expect(form.contains("type=\"password\"") && form.contains("organisation"))
    }
}
