import ServerConsole
import ServerDomain
import ServerLedgerContract
import ServerHTTPTypes
import ServerReports
import SharedDomain
import Synchronization

/// A clock the test moves.
final class TestClock: WallClock, Sendable {
    private let time = Mutex(WallTime(milliseconds: 1_796_029_200_000))
    func now() -> WallTime { time.withLock { $0 } }
    func advance(seconds: Int64) { time.withLock { $0 = WallTime(milliseconds: $0.milliseconds + seconds * 1000) } }
}

/// Deterministic stand-ins for libsodium: counting random bytes, a readable "hash".
enum FakeCrypto {
    static let counter = Mutex<UInt8>(0)
    static let crypto = ConsoleCrypto(
        random: { count in counter.withLock { value in value &+= 1; return [UInt8](repeating: value, count: count) } },
        digest: { bytes in Array(bytes.reversed().prefix(32)) },
        verifyPassword: { password, hash in hash == "plain:" + password },
        hashPassword: { "plain:" + $0 },
        needsRehash: { _ in false },
        equal: { $0 == $1 })
}

/// A console over an in-memory ledger with accounts of every role (password `password-<role>`).
struct ConsoleFixture {
    let ledger = InMemoryLedger()
    let clock = TestClock()
    let site: ConsoleSite

    init(venues: VenueDirectory = VenueDirectory(), throttle: SignInThrottle = SignInThrottle()) {
        site = ConsoleSite(ConsoleSite.Parts(
            ledger: ledger, accounts: ledger, refusals: ledger, visits: LedgerOpenVisits(ledger: ledger, venues: venues),
            flow: ledger, venues: venues, zone: UTCTimeZone(), clock: clock, crypto: FakeCrypto.crypto, throttle: throttle, decoyHash: { "plain:\u{1}" }))
        for role in ConsoleRole.allCases {
            _ = try! ledger.addAccount(ConsoleAccount(name: role.rawValue, role: role, passwordHash: "plain:password-\(role.rawValue)", created: clock.now()))
        }
    }

    /// Answers `request` (waiting for a completion that comes later).
    func send(_ request: HTTPRequest) -> HTTPResponse {
        let answer = Mutex<HTTPResponse?>(nil)
        site.respond(to: request) { response in answer.withLock { $0 = response } }
        for _ in 0..<2000 {
            if let response = answer.withLock({ $0 }) { return response }
            usleepMilliseconds(5)
        }
        fatalError("no answer within 10 s")
    }

    /// Signs in as `name` from `client`; returns the session cookie, or the refusal's response.
    func signIn(_ name: String, password: String? = nil, client: String = "192.0.2.1") -> (cookie: String?, response: HTTPResponse) {
        let form = send(HTTPRequest(method: "GET", path: "/admin/login", client: client))
        let token = Self.cookie(form, "qrcheckin_console_login")!
        let response = send(HTTPRequest(method: "POST", path: "/admin/login", cookies: ["qrcheckin_console_login": token],
                                        form: ["form-token": token, "user": name, "password": password ?? "password-\(name)"], client: client))
        return (Self.cookie(response, "qrcheckin_console"), response)
    }

    /// The value a response's `Set-Cookie` gives `name` (nil when none, or when it deletes it).
    static func cookie(_ response: HTTPResponse, _ name: String) -> String? {
        for header in response.headers(named: "Set-Cookie") where header.hasPrefix(name + "=") {
            let value = header.dropFirst(name.count + 1).prefix { $0 != ";" }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The hidden form token of a page.
    static func formToken(_ response: HTTPResponse) -> String? {
        let html = String(decoding: response.body, as: UTF8.self)
        guard let range = html.firstRange(of: "name=\"form-token\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

import Glibc
func usleepMilliseconds(_ milliseconds: UInt32) { usleep(milliseconds * 1000) }
