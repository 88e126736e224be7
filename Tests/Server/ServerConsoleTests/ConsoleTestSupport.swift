import ServerConsole
import ServerDomain
import ServerLedgerContract
import ServerLedgerTesting
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

    init(venues: VenueDirectory = VenueDirectory(), throttle: SignInThrottle = SignInThrottle()) async {
        site = ConsoleSite(ConsoleSite.Parts(ledger: ledger, venues: venues, zone: UTCTimeZone(), clock: clock, crypto: FakeCrypto.crypto,
                                             throttle: throttle, decoyHash: { "plain:\u{1}" }))
        for role in ConsoleRole.allCases {
            _ = try! await ledger.addAccount(ConsoleAccount(name: role.rawValue, role: role, passwordHash: "plain:password-\(role.rawValue)", created: clock.now()))
        }
    }

    /// Answers `request` (a check-in's answer after the commit).
    func send(_ request: HTTPRequest) async -> HTTPResponse {
        await site.respond(to: request)
    }

    /// Signs in as `name` from `client`; returns the session cookie, or the refusal's response.
    func signIn(_ name: String, password: String? = nil, client: String = "192.0.2.1") async -> (cookie: String?, response: HTTPResponse) {
        let form = await send(HTTPRequest(method: "GET", path: "/admin/login", client: client))
        let token = Self.cookie(form, "qrcheckin_console_login")!
        let response = await send(HTTPRequest(method: "POST", path: "/admin/login", cookies: ["qrcheckin_console_login": token],
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

