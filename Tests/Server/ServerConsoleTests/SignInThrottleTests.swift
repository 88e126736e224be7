import ServerConsole
import ServerDomain
import Testing

/// Sign-in throttling on the fixture's clock: a network's own failures delay it, never another
/// network, never for good; the right password is never refused because of someone else's
/// wrong ones (issue 37: an attacker's rotating addresses kept the owner out), and guessing
/// stays slow.
struct SignInThrottleTests {
    @Test func twentyWrongPasswordsDelayThatNetworkOnlyAndOnlyForSeconds() async {
        let fixture = await ConsoleFixture()
        var statuses: [Int] = []
        for _ in 0..<20 { statuses.append(await fixture.signIn("admin", password: "wrong-guess").response.status) }
        #expect(statuses.prefix(10).allSatisfy { $0 == 401 } && statuses.dropFirst(10).allSatisfy { $0 == 429 }, "\(statuses)")
        let delayed = await fixture.signIn("admin")
        #expect(delayed.response.status == 429 && delayed.cookie == nil, "from the network that guessed, even the right password waits")
        #expect(delayed.response.header("Retry-After").flatMap(Int.init).map { $0 >= 1 && $0 <= 10 } == true)
        #expect(await fixture.signIn("admin", client: "198.51.100.7").response.status == 303, "from another network, the right password at once")
        #expect(await fixture.signIn("steward").response.status == 303, "another account from the same network signs in at once")
        fixture.clock.advance(seconds: 10)
        #expect(await fixture.signIn("admin").response.status == 303, "ten seconds later the admin signs in")
    }

    /// The attack on the throttle's own terms: 20 addresses guess admin's password as
    /// fast as they may for ten minutes; every second the owner tries the right password from
    /// a network never seen, and every 30 seconds from one that signed in before, after
    /// mistyping it twice. Every one of the owner's tries signs in at once.
    @Test func theRightPasswordIsNeverRefusedBecauseOfOtherNetworksWrongOnes() async {
        let fixture = await ConsoleFixture()
        #expect(await fixture.signIn("admin", client: "203.0.113.1").response.status == 303, "the owner's office, known from now on")
        var checked = 0
        for second in 0..<600 {
            for address in 1...20 {
                let status = await fixture.signIn("admin", password: "guess-\(second)-\(address)", client: "192.0.2.\(address)").response.status
                #expect(status == 401 || status == 429)
                if status == 401 { checked += 1 }
            }
            #expect(await fixture.signIn("admin", client: "198.51.\(second / 256).\(second % 256)").response.status == 303, "a new network at \(second) s")
            if second % 30 == 0 {
                #expect(await fixture.signIn("admin", password: "typo-1", client: "203.0.113.1").response.status == 401)
                #expect(await fixture.signIn("admin", password: "typo-2", client: "203.0.113.1").response.status == 401)
                #expect(await fixture.signIn("admin", client: "203.0.113.1").response.status == 303, "the office at \(second) s, after two typos")
            }
            fixture.clock.advance(seconds: 1)
        }
        // The account's 10, then each address's first try await under attack (20), then one per
        // address every 5 minutes (20 at 300 s): 50 in 10 minutes (the old throttle: 70).
        #expect(checked == 50, "\(checked) guesses checked")
    }

    /// How fast an attacker with 20 addresses guesses one account, on the injected clock: about
    /// 4 guesses a minute (0.07 a second), against the old throttle's 6 (10 at once, then one
    /// every 10 s). Each address tries every 250 ms for an hour.
    @Test func anAttackerWithTwentyAddressesGetsAboutFourGuessesAMinute() async {
        let throttle = SignInThrottle()
        var now: Int64 = 1_796_029_200_000
        var checked = 0
        for _ in 0..<(4 * 3600) {
            for address in 1...20 where throttle.wait(account: "admin", network: "192.0.2.\(address)", now: now) == 0 {
                throttle.failed(account: "admin", network: "192.0.2.\(address)", now: now)
                checked += 1
            }
            now += 250
        }
        // 30 in the first second (the account's 10, then each address's first try await under
        // attack), then 20 every 5 minutes: 30 + 11 × 20 = 250 an hour, 0.07 a second (the
        // old throttle: 10 + 359 = 369, 0.1 a second).
        #expect(checked == 250, "\(checked) guesses in an hour")
        #expect(throttle.underAttack("admin", now: now))
        #expect(throttle.wait(account: "admin", network: "198.51.100.1", now: now) == 0, "a network never seen tries at once")
        #expect(throttle.wait(account: "steward", network: "192.0.2.1", now: now) == 0, "another account from an attacking address: not this account's attack")
    }

    /// Under attack, a stranger network's first try await is checked, a failed one waits 5 minutes;
    /// a known network keeps its own budget; when the attack stops, the account's budget
    /// refills and strangers are back to the ordinary one.
    @Test func underAttackAStrangerGetsOneTryAKnownNetworkItsOwnBudget() {
        let throttle = SignInThrottle()
        let now: Int64 = 1_796_029_200_000
        throttle.succeeded(account: "admin", network: "office", now: now)
        for address in 0..<10 { throttle.failed(account: "admin", network: "attacker-\(address)", now: now) }
        #expect(throttle.underAttack("admin", now: now))
        #expect(throttle.wait(account: "admin", network: "cafe", now: now) == 0)
        throttle.failed(account: "admin", network: "cafe", now: now)
        #expect(throttle.wait(account: "admin", network: "cafe", now: now) == 300_000, "a stranger's typo under attack: 5 minutes")
        #expect(throttle.wait(account: "admin", network: "cafe", now: now + 300_000) == 0, "5 minutes, never more")
        for _ in 0..<9 { throttle.failed(account: "admin", network: "office", now: now) }
        #expect(throttle.wait(account: "admin", network: "office", now: now) == 0, "the office's nine typos: still at once")
        throttle.failed(account: "admin", network: "office", now: now)
        #expect(throttle.wait(account: "admin", network: "office", now: now) == 10_000, "its tenth: its own 10 s")
        // 21 failures at once: the account's budget (10, then one a minute) is back in 12 minutes.
        let later = now + 12 * 60_000
        #expect(!throttle.underAttack("admin", now: later))
        #expect(throttle.wait(account: "admin", network: "attacker-0", now: later) == 0)
        // A known network is forgotten 30 days after its last sign-in.
        for address in 0..<10 { throttle.failed(account: "admin", network: "attacker-\(address)", now: now + 31 * 86_400_000) }
        throttle.failed(account: "admin", network: "office", now: now + 31 * 86_400_000)
        #expect(throttle.wait(account: "admin", network: "office", now: now + 31 * 86_400_000) == 300_000)
    }

    @Test func wrongPasswordsAndSignInsAreAudited() async throws {
        let fixture = await ConsoleFixture()
        _ = await fixture.signIn("admin", password: "nope-nope")
        _ = await fixture.signIn("nobody", password: "password-admin")
        _ = await fixture.signIn("admin")
        var entries: [AuditEntry] = []
        try await fixture.ledger.eachEntry(AuditQuery()) { entries.append($0); return true }
        #expect(entries.map(\.action) == [.signIn, .signInFailed, .signInFailed])
        #expect(entries.map(\.actor) == ["admin", "-", "admin"])
        #expect(entries.allSatisfy { $0.source == "console 192.0.2.1" })
    }
}
