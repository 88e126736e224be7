import ServerConsole
import ServerDomain
import Testing

/// Sign-in throttling delays one account's guesses, never another account, never for good.
struct SignInThrottleTests {
    @Test func twentyWrongPasswordsDelayThatAccountOnlyAndOnlyForSeconds() {
        let fixture = ConsoleFixture()
        var statuses: [Int] = []
        for _ in 0..<20 { statuses.append(fixture.signIn("admin", password: "wrong-guess").response.status) }
        #expect(statuses.prefix(10).allSatisfy { $0 == 401 } && statuses.dropFirst(10).allSatisfy { $0 == 429 }, "\(statuses)")
        let delayed = fixture.signIn("admin")
        #expect(delayed.response.status == 429 && delayed.cookie == nil, "even the right password waits")
        #expect(delayed.response.header("Retry-After").flatMap(Int.init).map { $0 >= 1 && $0 <= 10 } == true)
        #expect(fixture.signIn("steward").response.status == 303, "another account from the same network signs in at once")
        fixture.clock.advance(seconds: 10)
        #expect(fixture.signIn("admin").response.status == 303, "ten seconds later the admin signs in")
    }

    @Test func wrongPasswordsAndSignInsAreAudited() throws {
        let fixture = ConsoleFixture()
        _ = fixture.signIn("admin", password: "nope-nope")
        _ = fixture.signIn("nobody", password: "password-admin")
        _ = fixture.signIn("admin")
        var entries: [AuditEntry] = []
        try fixture.ledger.audit(AuditQuery()) { entries.append($0); return true }
        #expect(entries.map(\.action) == [.signIn, .signInFailed, .signInFailed])
        #expect(entries.map(\.actor) == ["admin", "-", "admin"])
        #expect(entries.allSatisfy { $0.source == "console 192.0.2.1" })
    }
}
