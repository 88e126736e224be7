import ServerDomain
import ServerHTTPTypes
@testable import ServerSite
import SharedDomain
import Testing

/// The route carries typed ids, read once from the path; a path whose id cannot be read is
/// answered where it is parsed, with the status its page gives an id it does not know.
struct RouteTests {
    static let hall = try! VenueID("HALL-1")

    @Test func venueAndReceiptIdsAreTyped() async throws {
        let id = try await #require(ReceiptID("210070222880084"))
        #expect(Route(method: "GET", path: "/C/HALL-1", basePath: "/C") == .safeNumberForm(venue: Self.hall))
        #expect(Route(method: "POST", path: "/C/HALL-1", basePath: "/C") == .safeNumber(venue: Self.hall))
        #expect(Route(method: "POST", path: "/C/HALL-1/visitor", basePath: "/C") == .visitor(venue: Self.hall))
        #expect(Route(method: "HEAD", path: "/C/HALL-1/occupancy", basePath: "/C") == .occupancy(venue: Self.hall))
        #expect(Route(method: "GET", path: "/C/HALL-1/receipt/210070222880084", basePath: "/C") == .receipt(venue: Self.hall, id: id))
        #expect(Route(method: "POST", path: "/C/HALL-1/receipt/210070222880084", basePath: "/C") == .checkOut(venue: Self.hall, id: id))
        #expect(Route(method: "GET", path: "/C/HALL-1/1ABC", basePath: "/C") == .scan(venue: Self.hall, token: "1ABC"))
        #expect(Route(method: "GET", path: "/HALL-1/receipt/7", basePath: "") == .receipt(venue: Self.hall, id: ReceiptID(7)))
    }

    @Test func anUnreadableIdIsAnsweredByTheRoute() {
        for (method, path, page) in [("GET", "/C/hall-1", Route.Unreadable.safeNumber), ("POST", "/C/A_B", .safeNumber),
                                     ("POST", "/C/..", .visitor), ("GET", "/C/" + String(repeating: "A", count: 17) + "/occupancy", .occupancy),
                                     ("GET", "/C/HALL-1/receipt/+1", .receipt), ("GET", "/C/HALL-1/receipt/-0", .receipt),
                                     ("GET", "/C/HALL-1/receipt/1e3", .receipt), ("POST", "/C/HALL-1/receipt/", .receipt),
                                     ("POST", "/C/hall-1/receipt/12", .receipt), ("GET", "/C/HALL-1/receipt/1234567890123456789", .receipt)] {
            let path = method == "POST" && page == .visitor ? path + "/visitor" : path
            #expect(Route(method: method, path: path, basePath: "/C") == .unreadable(page), "\(method) \(path)")
        }
        // A scan's venue that is no id goes to the use case, which refuses it as malformed and counts it.
        #expect(Route(method: "GET", path: "/C/hall-1/1ABC", basePath: "/C") == .scan(venue: nil, token: "1ABC"))
    }

    @Test func theMethodIsDecidedBeforeTheIds() {
        #expect(Route(method: "DELETE", path: "/C/hall-1", basePath: "/C") == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(Route(method: "GET", path: "/C/hall-1/visitor", basePath: "/C") == .methodNotAllowed(allow: "POST"))
        #expect(Route(method: "POST", path: "/C/hall-1/occupancy", basePath: "/C") == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(Route(method: "PUT", path: "/C/HALL-1/receipt/x", basePath: "/C") == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(Route(method: "HEAD", path: "/C/hall-1/1ABC", basePath: "/C") == .methodNotAllowed(allow: "GET"))
    }

    @Test func unreadableIdsGetTheStatusOfAnUnknownOne() async {
        let fixture = SiteFixture()
        #expect(await fixture.get("/C/hall-1").status == 404)
        #expect(await fixture.get("/C/hall-1", method: "POST", form: [:]).status == 404)
        #expect(await fixture.get("/C/hall-1/visitor", method: "POST", form: ["ticket": "x"]).status == 400)
        #expect(await fixture.get("/C/hall-1/occupancy").status == 404)
        #expect(SiteFixture.text(await fixture.get("/C/hall-1/occupancy")) == "{\"error\":\"unknown venue\"}\n")
        #expect(await fixture.get("/C/HALL-1/receipt/abc").status == 404)
        #expect(await fixture.get("/C/HALL-1/receipt/abc", method: "POST", form: [:]).status == 404)
        // Every POST of the site refuses a form from another site first, whatever its path's ids.
        for path in ["/C/hall-1", "/C/hall-1/visitor", "/C/HALL-1/receipt/abc"] {
            #expect(await fixture.get(path, headers: ["sec-fetch-site": "cross-site"], method: "POST", form: [:]).status == 403, "\(path)")
        }
        // A scan whose venue is no id is refused as malformed, and the refusal is counted.
        #expect(await fixture.get("/C/hall-1/" + fixture.code().token).status == 400)
        #expect(fixture.ledger.refusals().contains { $0.reason == .malformed && $0.venue == nil })
    }
}
