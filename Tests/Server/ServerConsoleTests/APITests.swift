@testable import ServerConsole
import ServerDomain
import ServerHTTPTypes
import ServerLedgerTesting
import ServerReports
import SharedDomain
import SharedJSON
import Testing

/// The API on the console's listener, on a memory ledger and a test clock: tokens by their
/// secrets' hashes, scopes, venues, the rate (429 and Retry-After, refilled as the clock moves),
/// problem details, keyset pages with none missed or repeated, and every call audited as its token.
struct APITests {
    static let hall = try! VenueID("HALL-1")
    static let gate = try! VenueID("GATE-2")

    /// A console whose ledger holds a token of `scope` (venues `venues`); returns it and the secret.
    static func fixture(_ scope: APIScope, venues: [VenueID] = [], rate: RateBudget = RateBudget(burst: 100, intervalMilliseconds: 50)) async throws
        -> (ConsoleFixture, ConsoleSite, String) {
        let fixture = await ConsoleFixture()
        let site = ConsoleSite(ConsoleSite.Parts(ledger: fixture.ledger, venues: VenueDirectory(), zone: UTCTimeZone(), clock: fixture.clock,
                                                 crypto: FakeCrypto.crypto, apiRate: rate, decoyHash: { "plain:\u{1}" }))
        let secret = APITokenSecret(random: [UInt8](repeating: 7, count: 32))
        let token = APIToken(name: "robot", scope: scope, venues: venues, secretHash: secret.hash(FakeCrypto.crypto.digest),
                             created: fixture.clock.now(), createdBy: "root")
        let changes = TokenChanges(trail: AuditTrail(ledger: fixture.ledger, actor: .shell("root"), clock: fixture.clock))
        #expect(try await changes.add(token))
        return (fixture, site, secret.text)
    }

    static func get(_ site: ConsoleSite, _ path: String, _ secret: String?, query: [String: String] = [:]) async -> (Int, JSONValue?) {
        let response = await site.respond(to: HTTPRequest(method: "GET", path: path, query: query, queryArguments: query.count,
                                                          headers: secret.map { ["authorization": "Bearer \($0)"] } ?? [:]))
        return (response.status, try? JSONParser.parse(response.body))
    }

    @Test func routesAreDecidedOnceWithTheirScopes() {
        #expect(APIRoute(method: "GET", path: "/api/v1/checkins") == .checkIns && APIRoute.checkIns.scope == .read)
        #expect(APIRoute(method: "POST", path: "/api/v1/checkins") == .checkIn && APIRoute.checkIn.scope == .checkin)
        #expect(APIRoute(method: "POST", path: "/api/v1/checkins/93812746501234/checkout") == .checkOut(93812746501234))
        #expect(APIRoute(method: "GET", path: "/api/v1/venues/HALL-1/inside") == .inside(Self.hall))
        #expect(APIRoute(method: "GET", path: "/api/v1/openapi.json").scope == nil)
        #expect(APIRoute(method: "GET", path: "/api/v1/venues/hall-1/inside") == .notFound, "venue ids are upper case")
        #expect(APIRoute(method: "GET", path: "/api/v1/checkins/12/checkout") == .methodNotAllowed(allow: "POST"))
        #expect(APIRoute(method: "GET", path: "/api/v2/checkins") == .notFound)
        #expect(APICursor("1796029200000.93812746501234")?.text == "1796029200000.93812746501234")
        #expect(APICursor("1.0") == nil && APICursor("-1.5") == nil && APICursor("1.5.6") == nil && APICursor("") == nil)
    }

    @Test func noTokenAnUnknownOneAndAMissingScopeAreRefusedAsProblems() async throws {
        let (fixture, site, secret) = try await Self.fixture(.read)
        let before = try await fixture.ledger.audit(AuditQuery()).count
        let none = await site.respond(to: HTTPRequest(method: "GET", path: "/api/v1/checkins"))
        #expect(none.status == 401 && none.header("Content-Type") == "application/problem+json" && none.header("WWW-Authenticate") != nil)
        let problem = try JSONParser.parse(none.body)
        #expect(problem["status"] == .number(401) && problem["title"] == .string("Unauthorized") && problem["type"] == .string("about:blank"))
        #expect(await Self.get(site, "/api/v1/checkins", "qrc_" + String(repeating: "0", count: 64)).0 == 401)
        #expect(await Self.get(site, "/api/v1/checkins", "Basic abc").0 == 401)
        #expect(try await fixture.ledger.audit(AuditQuery()).count == before, "nothing audited for a refused token")
        let post = await site.respond(to: HTTPRequest(method: "POST", path: "/api/v1/checkins", headers: ["authorization": "Bearer \(secret)", "content-type": "application/json"],
                                                      body: Array(#"{"venue":"HALL-1"}"#.utf8)))
        #expect(post.status == 403)
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0)
    }

    @Test func pagesFollowTheCursorWithNoneMissedOrRepeatedAndEachIsAnAuditedExport() async throws {
        let (fixture, site, secret) = try await Self.fixture(.read)
        for index in 0..<25 {
            _ = try await fixture.ledger.record(NewCheckIn(venue: index % 2 == 0 ? Self.hall : Self.gate, time: WallTime(milliseconds: 1_796_029_200_000 + Int64(index / 4)),
                                                           method: .qr, windowAge: 0, device: nil), rules: AdmissionRules(duplicateSeconds: 0))
        }
        var ids: [Int64] = [], after: String?, pages = 0
        repeat {
            var query = ["limit": "4"]
            if let after { query["after"] = after }
            let (status, page) = await Self.get(site, "/api/v1/checkins", secret, query: query)
            #expect(status == 200)
            guard case .array(let rows)? = page?["checkins"] else { Issue.record("no checkins"); return }
            ids += rows.compactMap { $0["id"]?.integer }
            after = page?["next"]?.string
            pages += 1
        } while after != nil && pages < 20
        #expect(ids.count == 25 && Set(ids).count == 25 && pages == 7)
        let exports = try await fixture.ledger.audit(AuditQuery()).filter { $0.action == .export }
        #expect(exports.count == 7 && exports.allSatisfy { $0.actor == "robot" && $0.source == "api 127.0.0.1" })
        #expect(await Self.get(site, "/api/v1/checkins", secret, query: ["limit": "0"]).0 == 400)
        #expect(await Self.get(site, "/api/v1/checkins", secret, query: ["after": "1.0"]).0 == 400)
        let unknown = await site.respond(to: HTTPRequest(method: "GET", path: "/api/v1/checkins", queryArguments: 1, headers: ["authorization": "Bearer \(secret)"]))
        #expect(unknown.status == 400, "a parameter the adapter does not know is refused, never ignored")
    }

    @Test func aTokenOfOneVenueSeesThatVenueAlone() async throws {
        let (_, site, secret) = try await Self.fixture(.checkin, venues: [Self.hall])
        #expect(await Self.get(site, "/api/v1/checkins", secret, query: ["venue": "GATE-2"]).0 == 403)
        #expect(await Self.get(site, "/api/v1/venues/GATE-2/inside", secret).0 == 403)
        let made = await site.respond(to: HTTPRequest(method: "POST", path: "/api/v1/checkins", headers: ["authorization": "Bearer \(secret)", "content-type": "application/json"],
                                                      body: Array(#"{"venue":"HALL-1","name":"Kim"}"#.utf8)))
        #expect(made.status == 201)
        #expect(try JSONParser.parse(made.body)["operator"] == .string("robot"))
        let (status, roll) = await Self.get(site, "/api/v1/venues/HALL-1/inside", secret)
        guard case .array(let inside)? = roll?["inside"] else { Issue.record("no roll"); return }
        #expect(status == 200 && inside.count == 1)
    }

    @Test func pastItsRateATokenWaitsAsRetryAfterSaysAndTheClockRefillsIt() async throws {
        let (fixture, site, secret) = try await Self.fixture(.read, rate: RateBudget(burst: 2, intervalMilliseconds: 3000))
        #expect(await Self.get(site, "/api/v1/venues", secret).0 == 200)
        #expect(await Self.get(site, "/api/v1/venues", secret).0 == 200)
        let limited = await site.respond(to: HTTPRequest(method: "GET", path: "/api/v1/venues", headers: ["authorization": "Bearer \(secret)"]))
        #expect(limited.status == 429 && limited.header("Retry-After") == "3")
        fixture.clock.advance(seconds: 3)
        #expect(await Self.get(site, "/api/v1/venues", secret).0 == 200)
    }
}
