import ServerConsole
import ServerDomain
import ServerHTTPTypes
import Testing

/// Sessions on a test clock: idle 30 minutes, 12 hours at most, sign-out ends them.
struct ConsoleSessionTests {
    @Test func aSessionEndsAfterThirtyIdleMinutes() throws {
        let fixture = ConsoleFixture()
        let cookie = fixture.signIn("steward").cookie!
        let page = { fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status }
        fixture.clock.advance(seconds: 29 * 60)
        #expect(page() == 200)
        fixture.clock.advance(seconds: 29 * 60)
        #expect(page() == 200, "used 29 minutes ago: still alive")
        fixture.clock.advance(seconds: 30 * 60)
        #expect(page() == 303, "idle 30 minutes: ended")
    }

    @Test func aSessionEndsTwelveHoursAfterSignInHoweverBusy() throws {
        let fixture = ConsoleFixture()
        let cookie = fixture.signIn("steward").cookie!
        for _ in 0..<(12 * 60 / 20 - 1) {
            fixture.clock.advance(seconds: 20 * 60)
            #expect(fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 200)
        }
        fixture.clock.advance(seconds: 20 * 60)
        #expect(fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 303)
    }

    @Test func signOutEndsTheSessionAndEachSignInGetsANewId() throws {
        let fixture = ConsoleFixture()
        let first = fixture.signIn("admin")
        #expect(first.response.status == 303)
        let setCookie = first.response.header("Set-Cookie")!
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/admin") && !setCookie.contains("Secure"))
        let second = fixture.signIn("admin").cookie!
        #expect(second != first.cookie)
        let dashboard = fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": second]))
        let token = try #require(ConsoleFixture.formToken(dashboard))
        #expect(fixture.send(HTTPRequest(method: "POST", path: "/admin/logout", cookies: ["qrcheckin_console": second], form: ["form-token": token])).status == 303)
        #expect(fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": second])).status == 303)
        #expect(fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": first.cookie!])).status == 200, "another session stays")
    }

    @Test func aDisabledAccountsSessionEndsAtOnce() throws {
        let fixture = ConsoleFixture()
        let cookie = fixture.signIn("supervisor").cookie!
        _ = try fixture.ledger.changeAccount(named: "supervisor", AccountChange(disabled: true))
        #expect(fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 303)
        #expect(fixture.signIn("supervisor").response.status == 401)
    }

    @Test func theCookieIsSecureBehindTLS() {
        let fixture = ConsoleFixture()
        let form = fixture.send(HTTPRequest(method: "GET", path: "/admin/login", secure: true))
        #expect(form.header("Set-Cookie")!.hasSuffix("; Secure"))
    }
}
