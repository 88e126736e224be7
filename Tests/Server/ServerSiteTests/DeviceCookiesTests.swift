@testable import ServerSite
import ServerDomain
import SharedDomain
import SharedSystem
import Testing

/// The device cookie and the id the ledger keeps of it.
@Suite struct DeviceCookiesTests {
    let clock = TestClock(seconds: SiteFixture.start)
    var cookies: DeviceCookies { DeviceCookies(random: SecureRandom.bytes, hash: { GenericHash.digest($0) }, clock: clock) }

    @Test func aNewCookieIsItsIssueTimeThen128RandomBits() {
        let cookie = cookies.newCookie()
        #expect(cookie.utf8.count == 44)
        #expect(cookie.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(UInt64(cookie.prefix(12), radix: 16) == UInt64(SiteFixture.start * 1000))
        #expect(cookies.newCookie().dropFirst(12) != cookie.dropFirst(12))
    }

    /// What the ledger's B-trees are given: a later cookie's id sorts after an earlier one's,
    /// and the id is the time and a hash, never the cookie's random part.
    @Test func idsSortByIssueTimeAndHideTheCookie() throws {
        let first = cookies.newCookie()
        clock.advance(seconds: 1)
        let second = cookies.newCookie()
        let a = try #require(cookies.device(for: first)), b = try #require(cookies.device(for: second))
        #expect(a.rawValue < b.rawValue)
        #expect(a.rawValue.utf8.count == 44 && a.rawValue.hasPrefix(first.prefix(12)))
        #expect(!a.rawValue.contains(first.dropFirst(12)))
        #expect(cookies.device(for: first) == a)
        #expect(cookies.device(for: first.uppercased()) == a)
    }

    /// Phones keep cookies for a year: one issued before the time led still names its device.
    @Test func aCookieOf32DigitsKeepsTheIdItHad() {
        let cookie = String(repeating: "0123456789abcdef", count: 2)
        let bytes: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]
        let digest = GenericHash.digest(bytes)
        #expect(digest.count == 16)
        #expect(cookies.device(for: cookie)?.rawValue == Hex.encode(digest))
    }

    @Test(arguments: ["", "0", String(repeating: "0", count: 31), String(repeating: "0", count: 43),
                      String(repeating: "0", count: 45), String(repeating: "g", count: 44), String(repeating: "g", count: 32)])
    func otherValuesNameNoDevice(_ value: String) {
        #expect(cookies.device(for: value) == nil)
    }
}
