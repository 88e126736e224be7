@testable import ServerSite
import ServerDomain
import SharedDomain
import SharedSystem
import Testing

/// The device cookie and the id the ledger keeps of it.
@Suite struct DeviceCookiesTests {
    let clock = TestClock(seconds: SiteFixture.start)
    static let keys = SiteKeys(testing: Array(repeating: 9, count: 32))
    var cookies: DeviceCookies { Self.cookies(keys: Self.keys, clock: clock) }

    static func cookies(keys: SiteKeys, clock: TestClock) -> DeviceCookies {
        DeviceCookies(random: SecureRandom.bytes, hash: { GenericHash.digest($0) }, keys: keys, authenticator: HMACAuthenticator(), clock: clock)
    }

    @Test func aNewCookieIsItsIssueTimeThen128RandomBitsThenItsMAC() {
        let cookie = cookies.newCookie()
        #expect(cookie.utf8.count == 60)
        #expect(cookie.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(UInt64(cookie.prefix(12), radix: 16) == UInt64(SiteFixture.start * 1000))
        #expect(cookies.newCookie().dropFirst(12) != cookie.dropFirst(12))
    }

    @Test func aNewDeviceIsTheDeviceItsCookieNames() {
        let (cookie, device) = cookies.newDevice()
        #expect(cookies.device(for: cookie) == device, "the id made with the cookie is the one the cookie yields when it comes back")
    }

    /// What the ledger's B-trees are given: a later cookie's id sorts after an earlier one's,
    /// and the id is the time and a hash, never the cookie's random part.
    @Test func idsSortByIssueTimeAndHideTheCookie() async throws {
        let first = cookies.newCookie()
        clock.advance(seconds: 1)
        let second = cookies.newCookie()
        let a = try await #require(cookies.device(for: first)), b = try await #require(cookies.device(for: second))
        #expect(a.rawValue < b.rawValue)
        #expect(a.rawValue.utf8.count == 44 && a.rawValue.hasPrefix(first.prefix(12)))
        #expect(!a.rawValue.contains(first.dropFirst(12).prefix(32)))
        #expect(cookies.device(for: first) == a)
        #expect(cookies.device(for: first.uppercased()) == a)
    }

    /// A cookie cannot be made up: without the server's key a value names no device, so no
    /// script skips the new-device budgets by inventing cookies.
    @Test func aForgedOrAlteredCookieNamesNoDevice() async throws {
        let genuine = cookies.newCookie()
        var altered = Array(genuine)
        altered[20] = altered[20] == "0" ? "1" : "0"
        #expect(cookies.device(for: String(altered)) == nil)
        let otherServer = Self.cookies(keys: SiteKeys(testing: Array(repeating: 8, count: 32)), clock: clock)
        #expect(otherServer.device(for: genuine) == nil)
        #expect(cookies.device(for: String(repeating: "f", count: 60)) == nil)
    }

    /// An issue time from the future (past clock skew) or older than a cookie lives is no cookie:
    /// the forged `ffff…` of the year 10889 is refused even with a good MAC.
    @Test func anImplausibleIssueTimeNamesNoDevice() {
        let future = TestClock(seconds: SiteFixture.start + 3600)
        let fromTheFuture = Self.cookies(keys: Self.keys, clock: future).newCookie()
        #expect(cookies.device(for: fromTheFuture) == nil)
        let slightlyAhead = TestClock(seconds: SiteFixture.start + 60)
        #expect(cookies.device(for: Self.cookies(keys: Self.keys, clock: slightlyAhead).newCookie()) != nil)
        let ancient = TestClock(seconds: SiteFixture.start - 500 * 86_400)
        #expect(cookies.device(for: Self.cookies(keys: Self.keys, clock: ancient).newCookie()) == nil)
    }

    /// Cookies of earlier versions carried no MAC: they are not trusted (the phone gets a new
    /// device once).
    @Test(arguments: ["", "0", String(repeating: "0", count: 32), String(repeating: "0123456789abcdef", count: 2),
                      String(repeating: "0", count: 44), String(repeating: "0", count: 59), String(repeating: "0", count: 61),
                      String(repeating: "g", count: 60)])
    func otherValuesNameNoDevice(_ value: String) {
        #expect(cookies.device(for: value) == nil)
    }
}
