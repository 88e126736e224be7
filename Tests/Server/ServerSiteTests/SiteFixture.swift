import ServerDomain
import ServerLedgerTesting
import ServerHTTPTypes
import ServerReports
import ServerSite
import ServerWeb
import SharedDomain
import SharedSystem
import Synchronization

/// A wall clock the test moves.
final class TestClock: WallClock {
    private let current: Mutex<WallTime>
    init(seconds: Int64) { current = Mutex(WallTime(seconds: seconds)) }
    func now() -> WallTime { current.withLock { $0 } }
    func advance(seconds: Int64) { current.withLock { $0 = WallTime(milliseconds: $0.milliseconds + seconds * 1000) } }
}

/// Seoul: +09:00, no daylight saving.
struct SeoulZone: LocalTimeZone {
    func offsetSeconds(at time: WallTime) -> Int { 9 * 3600 }
}

/// The site over an in-memory ledger, a test clock and a fixed secret.
struct SiteFixture {
    static let secret = try! MasterSecret(bytes: Array(0..<32))
    static let hall = try! VenueID("HALL-1")
    /// 2026-11-30T09:00:00Z = 18:00 in Seoul, the start of a window.
    static let start: Int64 = 1_796_029_200

    let clock = TestClock(seconds: start)
    let ledger = InMemoryLedger()
    let authenticator = HMACAuthenticator()
    let site: CheckInSite

    init(venues: VenueDirectory = VenueDirectory(), tries: Int = 5, newDevices: NewDeviceLimits = .standard, look: SiteLook = .standard,
         occupancyOrigins: [String] = []) {
        let useCase = CheckInUseCase(venues: venues, keys: [.master(Self.secret)], authenticator: authenticator, ledger: ledger, clock: clock,
                                     newDevices: NewDeviceBudget(limits: newDevices))
        // Predictable "random" cookies: 16 equal bytes, a new value each time.
        let random = Mutex<UInt8>(0)
        let keys = SiteKeys(testing: Array(repeating: 7, count: 32))
        site = CheckInSite(CheckInSite.Parts(
            useCase: useCase, basePath: "/C", zone: SeoulZone(), clock: clock,
            limiter: SafeNumberLimiter(tries: tries, clock: clock),
            cookies: DeviceCookies(random: { count in random.withLock { value in value &+= 1; return [UInt8](repeating: value, count: count) } },
                                   hash: { GenericHash.digest($0) }, keys: keys, authenticator: authenticator, clock: clock),
            tickets: VisitorTickets(keys: keys, authenticator: authenticator),
            formTokens: FormTokens(keys: keys, authenticator: authenticator),
            metrics: ServerMetrics(startedAt: WallTime(seconds: Self.start)), look: look, occupancyOrigins: occupancyOrigins))
    }

    func code(_ venue: VenueID = hall, at time: Int64? = nil) -> CheckInCode {
        CheckInCodeIssuer(secret: Self.secret, baseURL: "HTTP://127.0.0.1/C", period: .standard, authenticator: authenticator)
            .code(for: venue, at: time ?? clock.now().seconds)
    }

    func get(_ path: String, cookies: [String: String] = [:], query: [String: String] = [:], language: String? = nil,
             method: String = "GET", form: [String: String] = [:], client: String = "192.0.2.1") async -> HTTPResponse {
        await get(path, cookies: cookies, query: query, headers: language.map { ["accept-language": $0] } ?? [:], method: method, form: form, client: client)
    }

    func get(_ path: String, cookies: [String: String] = [:], query: [String: String] = [:], headers: [String: String],
             method: String = "GET", form: [String: String] = [:], client: String = "192.0.2.1") async -> HTTPResponse {
        await respond(HTTPRequest(method: method, path: path, query: query, headers: headers, cookies: cookies, form: form, client: client,
                            clientIsLocal: false))
    }

    /// The site's answer to `request` (a check-in's comes after the commit).
    func respond(_ request: HTTPRequest) async -> HTTPResponse {
        await site.respond(to: request)
    }

    /// Posts `number` to the safe-number form the way a browser does: the form first (with the
    /// same cookies), then its fields back with the number.
    func postSafeNumber(_ number: String, venue: String = "HALL-1", cookies: [String: String] = [:], language: String? = nil,
                        client: String = "192.0.2.1") async -> HTTPResponse {
        let form = await get("/C/\(venue)", cookies: cookies, language: language, client: client)
        let token = Self.hiddenInput(form, "form-token") ?? ""
        return await get("/C/\(venue)", cookies: cookies, language: language, method: "POST", form: ["safe-number": number, "form-token": token], client: client)
    }

    /// The value of a page's hidden input `name`.
    static func hiddenInput(_ response: HTTPResponse, _ name: String) -> String? {
        let html = text(response)
        return html.firstRange(of: "name=\"\(name)\" value=\"").map { String(html[$0.upperBound...].prefix { $0 != "\"" }) }
    }

    static func cookie(_ response: HTTPResponse, _ name: String) -> String? {
        for header in response.headers(named: "Set-Cookie") where header.hasPrefix(name + "=") {
            return String(header.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        return nil
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
}
