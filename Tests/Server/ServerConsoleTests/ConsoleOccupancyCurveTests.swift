import ServerConsole
import ServerDomain
import ServerHTTPTypes
import ServerLedgerContract
import ServerLedgerTesting
import SharedDomain
import Testing

/// The dashboard's occupancy curve against a day generated here: the test counts who was inside
/// every 5 minutes itself, from the entries and exits it made (visits from the evening before,
/// check-outs, visits left open past the venue's `max-stay`), and compares that with the
/// numbers the card's SVG carries and its "inside now".
struct ConsoleOccupancyCurveTests {
    static let hall = try! VenueID("HALL-1")
    static let cafe = try! VenueID("CAFE")

    /// A small seeded generator (SplitMix64): the same day on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Visit {
        let venue: VenueID
        let entry: Int64
        let exit: Int64?
    }

    /// The value of attribute `name` on the SVG of `venue`'s card.
    static func attribute(_ html: String, venue: VenueID, _ name: String) throws -> String {
        let card = try #require(html.firstRange(of: "data-venue=\"\(venue.rawValue)\""))
        let rest = html[card.upperBound...]
        let found = try #require(rest.firstRange(of: " \(name)=\""))
        return String(rest[found.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theCurveIsTheDaysEntriesMinusExitsEveryFiveMinutes() async throws {
        // max-stay 3 h (the duplicate time): a whole number of 5-minute buckets.
        let stay: Int64 = 3 * 3600
        let profile = VenueProfile(displayName: "Great hall", period: .standard, skew: 1, duplicateSeconds: stay, visitorFields: [],
                                   presence: VenuePresence(capacity: 60))
        let venues = VenueDirectory(profiles: [Self.hall: profile])
        let fixture = await ConsoleFixture(venues: venues)
        // The fixture's clock is at 09:00 UTC (the console's zone): move on to 17:37:13.
        fixture.clock.advance(seconds: 8 * 3600 + 37 * 60 + 13)
        let now = fixture.clock.now().milliseconds
        let midnight = now - now % 86_400_000
        var random = SplitMix(state: 39)
        var visits: [Visit] = []
        for _ in 0..<600 {
            // Entries from 22:00 the evening before until now; stays of 1 to 300 minutes; four in
            // five leave by a check-out, the others never check out (ended by max-stay).
            let entry = midnight - 2 * 3_600_000 + Int64.random(in: 0..<(now - midnight + 2 * 3_600_000), using: &random)
            let exit = entry + Int64.random(in: 60_000...18_000_000, using: &random)
            let venue = Int.random(in: 0..<4, using: &random) == 0 ? Self.cafe : Self.hall
            visits.append(Visit(venue: venue, entry: entry, exit: exit <= now && Int.random(in: 0..<5, using: &random) > 0 ? exit : nil))
        }
        visits.sort { $0.entry < $1.entry }
        for (index, visit) in visits.enumerated() {
            let entry = NewCheckIn(venue: visit.venue, time: WallTime(milliseconds: visit.entry), method: .qr, windowAge: 0,
                                   device: DeviceID("device-\(index)"), visitor: nil, operatorName: nil)
            let id = try await fixture.ledger.record(entry, duplicateSeconds: stay).checkIn.id
            if let exit = visit.exit {
                let report = try await fixture.ledger.checkOut(CheckOutRequest(.checkIn(id), at: WallTime(milliseconds: exit), kind: .kiosk))
                #expect(report.closed == 1)
            }
        }
        let cookie = try #require(await fixture.signIn("steward").cookie)
        let page = await fixture.send(HTTPRequest(method: "GET", path: "/admin/", query: ["lang": "en"], cookies: ["qrcheckin_console": cookie]))
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        for venue in [Self.hall, Self.cafe] {
            // Inside at t: entered before t, and not ended before t (a visit without an exit
            // ends at its entry plus the stay).
            func inside(at t: Int64) -> Int {
                visits.filter { $0.venue == venue && $0.entry < t && ($0.exit ?? ($0.entry + stay * 1000)) >= t }.count
            }
            let expected = stride(from: midnight, through: now, by: 300_000).map(inside(at:))
            let drawn = try Self.attribute(html, venue: venue, "data-boundaries").split(separator: " ").map { Int($0) }
            #expect(drawn == expected.map { Optional($0) }, "\(venue): every 5 minutes since midnight")
            #expect(try Self.attribute(html, venue: venue, "data-step-minutes") == "5")
            // Now: the open visits within the stay, the one count the roll and `status` show.
            let open = visits.filter { $0.venue == venue && $0.exit == nil && $0.entry >= now - stay * 1000 }.count
            #expect(try Self.attribute(html, venue: venue, "data-now") == "\(open)")
            let presence = try await fixture.ledger.occupancy(venue: venue, openSince: WallTime(milliseconds: now - stay * 1000))[venue] ?? 0
            #expect(presence == open)
            #expect(html.contains("data-venue=\"\(venue.rawValue)\""))
            #expect(expected.contains { $0 > 0 }, "a day with people in it")
        }
        // The hall's card: its name, inside now against its capacity, the capacity's line labelled.
        let hall = try #require(html.firstRange(of: "data-venue=\"HALL-1\""))
        let card = html[hall.upperBound...].prefix { _ in true }
        let open = visits.filter { $0.venue == Self.hall && $0.exit == nil && $0.entry >= now - stay * 1000 }.count
        #expect(card.contains("<strong class=\"now\">\(open)</strong> <span class=\"of\">/ 60</span>"))
        #expect(card.contains("capacity 60</text>"))
        #expect(card.contains("<title id=\"curve-HALL-1-title\">Inside today at Great hall</title>"))
    }

    /// The domain's curve alone: a visit entered and ended within one bucket changes no
    /// boundary; a visit from before midnight is inside at the start; the last point is now's count.
    @Test func boundariesCountEnteredBeforeAndNotEndedBefore() {
        let start = WallTime(milliseconds: 1_796_083_200_000)
        let query = OccupancyCurve.query(start: start, now: WallTime(milliseconds: start.milliseconds + 1_000_000), longestStaySeconds: 3600)
        #expect(query.origin.milliseconds == start.milliseconds - 3_600_000 - OccupancyCurve.lateExitSeconds * 1000)
        let offset = query.bucket(of: start)
        let flows = [
            VisitFlow(venue: Self.hall, entered: offset - 2, exited: nil, count: 2),      // inside at the start, ends 50 min later by the stay
            VisitFlow(venue: Self.hall, entered: offset, exited: offset, count: 5),      // in and out within the first bucket
            VisitFlow(venue: Self.hall, entered: offset + 1, exited: offset + 3, count: 1),
        ]
        let curve = OccupancyCurve(venue: Self.hall, flows: flows, query: query, start: start,
                                   now: WallTime(milliseconds: start.milliseconds + 1_000_000), maxStaySeconds: 3600, insideNow: 3, capacity: nil)
        #expect(curve.boundaries == [2, 2, 3, 3])
        #expect(curve.entries == [5, 1, 0, 0])
        #expect(curve.exits == [5, 0, 0, 1])
        #expect(curve.points.last?.inside == 3 && curve.points.last?.offset == 1_000_000)
        #expect(curve.peak.inside == 3)
    }

    /// Each venue's card shows its kiosks' lights in words, judged now as the Kiosks page judges
    /// them: a kiosk silent for more than two intervals is late, for ten minutes offline; a
    /// paused one says so. A venue with a kiosk and no visit still has its card.
    @Test func theCardsShowTheirKiosksLights() async throws {
        let fixture = await ConsoleFixture(venues: VenueDirectory(profiles: [Self.hall: .standard]))
        try await fixture.reportKiosk("door-1")
        try await fixture.reportKiosk("door-2", paused: true)
        try await fixture.reportKiosk("lobby", venue: "CAFE")
        fixture.clock.advance(seconds: 90)
        try await fixture.reportKiosk("door-1")
        try await fixture.reportKiosk("door-2", paused: true)
        let cookie = try #require(await fixture.signIn("steward").cookie)
        let page = await fixture.send(HTTPRequest(method: "GET", path: "/admin/", query: ["lang": "en"], cookies: ["qrcheckin_console": cookie]))
        let html = String(decoding: page.body, as: UTF8.self)
        let hall = try #require(html.firstRange(of: "data-venue=\"HALL-1\""))
        let cafe = try #require(html.firstRange(of: "data-venue=\"CAFE\""))
        let hallCard = html[hall.upperBound..<(cafe.lowerBound < hall.lowerBound ? html.endIndex : cafe.lowerBound)]
        #expect(hallCard.contains("<span class=\"light light-ok\">● door-1</span> ok</li>"))
        #expect(hallCard.contains("<span class=\"light light-ok\">● door-2</span> ok <span class=\"who\">"), "paused: its problem in words")
        #expect(html.contains("<span class=\"light light-late\">● lobby</span> late"), "90 s without a report: late")
        #expect(html.contains("<a href=\"/admin/kiosks?lang=en\">Kiosks</a>"))
    }
}
