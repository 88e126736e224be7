import ServerConsole
import ServerDomain
import ServerHTTPTypes
import ServerLedgerContract
import SharedDomain
import Testing

/// The dashboard's "inside now" is the count of open visits `status`, `/metrics` and the
/// occupancy endpoint show (`LiveCounts.presence`), with the capacity beside it: a check-out
/// lowers it at once (it used to count check-ins within the duplicate time).
struct ConsoleDashboardTests {
    static let hall = try! VenueID("HALL-1")

    /// The cells of `venue`'s row on the dashboard: inside now (`/ capacity`), today, last hour.
    static func row(_ fixture: ConsoleFixture, _ cookie: String, _ venue: VenueID = hall) async throws -> [String] {
        let page = await fixture.send(HTTPRequest(method: "GET", path: "/admin/", query: ["lang": "en"], cookies: ["qrcheckin_console": cookie]))
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        let start = try await #require(html.firstRange(of: "<tr><th scope=\"row\">\(venue.rawValue)</th>"))
        let row = html[start.upperBound...].prefix { $0 != "\n" }
        let end = try await #require(row.firstRange(of: "</tr>"))
        return row[..<end.lowerBound].split(separator: "</td>").map { $0.replacing("<td>", with: "") }.map(String.init)
    }

    @Test func checkOutsLowerInsideNowAtOnceAndItEqualsTheOccupancyCount() async throws {
        let profile = VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3 * 3600, visitorFields: [],
                                   presence: VenuePresence(capacity: 40))
        let venues = VenueDirectory(profiles: [Self.hall: profile])
        let fixture = await ConsoleFixture(venues: venues)
        let cookie = try await #require(await fixture.signIn("steward").cookie)
        var ids: [Int64] = []
        for index in 0..<4 {
            let entry = NewCheckIn(venue: Self.hall, time: fixture.clock.now(), method: .qr, windowAge: 0,
                                   device: DeviceID("device-\(index)"), visitor: nil, operatorName: nil)
            ids.append(try await fixture.ledger.record(entry, duplicateSeconds: 3 * 3600).checkIn.id)
        }
        #expect(try await Self.row(fixture, cookie) == ["4 / 40", "4", "4"])
        fixture.clock.advance(seconds: 60)
        for (id, kind) in zip(ids, [ExitKind.receipt, .kiosk, .staff]) {
            _ = try await fixture.ledger.checkOut(CheckOutRequest(.checkIn(id), at: fixture.clock.now(), kind: kind))
        }
        let occupancy = try await fixture.ledger.occupancy(venue: Self.hall, openSince: profile.openSince(at: fixture.clock.now()))[Self.hall]
        #expect(occupancy == 1)
        #expect(try await Self.row(fixture, cookie) == ["1 / 40", "4", "4"], "three of four checked out: one inside, four checked in today")
        // A visit past its venue's longest stay has ended, as the roll and `status` say.
        fixture.clock.advance(seconds: 3 * 3600)
        #expect(try await Self.row(fixture, try await #require(await fixture.signIn("steward").cookie))[0] == "0 / 40")
    }

    @Test func aVenueWithoutACapacityShowsTheCountAlone() async throws {
        let fixture = await ConsoleFixture()
        let cookie = try await #require(await fixture.signIn("steward").cookie)
        _ = try await fixture.ledger.record(NewCheckIn(venue: Self.hall, time: fixture.clock.now(), method: .staff, windowAge: nil, device: nil,
                                                 visitor: nil, operatorName: "x"), duplicateSeconds: 0)
        #expect(try await Self.row(fixture, cookie) == ["1", "1", "1"])
        let page = await fixture.send(HTTPRequest(method: "GET", path: "/admin/", query: ["lang": "en"], cookies: ["qrcheckin_console": cookie]))
        #expect(String(decoding: page.body, as: UTF8.self).contains("<h2>Refused scans today</h2>\n<p>none</p>"), "no refusals: none")
    }

    /// A server that serves only its listed venues still counts the people inside a venue it
    /// no longer lists (an old configuration's): the roll lists them, and so does `inside`,
    /// with the default profile; the dashboard (and `status`) count them the same.
    @Test func visitsAtAVenueNoLongerListedAreCountedAsTheRollListsThem() async throws {
        let venues = VenueDirectory(profiles: [Self.hall: .standard], servesUnlisted: false)
        let fixture = await ConsoleFixture(venues: venues)
        let cookie = try await #require(await fixture.signIn("steward").cookie)
        let old = try await VenueID("OLD-HALL")
        for index in 0..<2 {
            _ = try await fixture.ledger.record(NewCheckIn(venue: old, time: fixture.clock.now(), method: .qr, windowAge: 0,
                                                     device: DeviceID("d\(index)"), visitor: nil, operatorName: nil), duplicateSeconds: 3600)
        }
        let roll = await fixture.send(HTTPRequest(method: "GET", path: "/admin/inside", query: ["lang": "en"], cookies: ["qrcheckin_console": cookie]))
        #expect(String(decoding: roll.body, as: UTF8.self).contains("<h2>OLD-HALL — 2</h2>"))
        #expect(try await Self.row(fixture, cookie, old) == ["2", "2", "2"])
    }
}
