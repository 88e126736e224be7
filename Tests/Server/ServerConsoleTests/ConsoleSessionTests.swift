import ServerConsole
import ServerDomain
import ServerHTTPTypes
import Testing

/// Sessions on a test clock: idle 30 minutes, 12 hours at most, sign-out ends them.
struct ConsoleSessionTests {
    @Test func aSessionEndsAfterThirtyIdleMinutes() async throws {
        let fixture = await ConsoleFixture()
        let cookie = await fixture.signIn("steward").cookie!
        let page = { await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status }
        fixture.clock.advance(seconds: 29 * 60)
        await #expect(page() == 200)
        fixture.clock.advance(seconds: 29 * 60)
        await #expect(page() == 200, "used 29 minutes ago: still alive")
        fixture.clock.advance(seconds: 30 * 60)
        await #expect(page() == 303, "idle 30 minutes: ended")
    }

    @Test func aSessionEndsTwelveHoursAfterSignInHoweverBusy() async throws {
        let fixture = await ConsoleFixture()
        let cookie = await fixture.signIn("steward").cookie!
        for _ in 0..<(12 * 60 / 20 - 1) {
            fixture.clock.advance(seconds: 20 * 60)
            #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 200)
        }
        fixture.clock.advance(seconds: 20 * 60)
        #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 303)
    }

    @Test func signOutEndsTheSessionAndEachSignInGetsANewId() async throws {
        let fixture = await ConsoleFixture()
        let first = await fixture.signIn("admin")
        #expect(first.response.status == 303)
        let setCookie = first.response.header("Set-Cookie")!
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/admin") && !setCookie.contains("Secure"))
        let second = await fixture.signIn("admin").cookie!
        #expect(second != first.cookie)
        let dashboard = await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": second]))
        let token = try await #require(ConsoleFixture.formToken(dashboard))
        #expect(await fixture.send(HTTPRequest(method: "POST", path: "/admin/logout", cookies: ["qrcheckin_console": second], form: ["form-token": token])).status == 303)
        #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": second])).status == 303)
        #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": first.cookie!])).status == 200, "another session stays")
    }

    @Test func aDisabledAccountsSessionEndsAtOnce() async throws {
        let fixture = await ConsoleFixture()
        let cookie = await fixture.signIn("supervisor").cookie!
        _ = try await fixture.ledger.changeAccount(named: "supervisor", AccountChange(disabled: true))
        #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 303)
        #expect(await fixture.signIn("supervisor").response.status == 401)
    }

    @Test func theCookieIsSecureBehindTLS() async {
        let fixture = await ConsoleFixture()
        let form = await fixture.send(HTTPRequest(method: "GET", path: "/admin/login", secure: true))
        #expect(form.header("Set-Cookie")!.hasSuffix("; Secure"))
    }
}
