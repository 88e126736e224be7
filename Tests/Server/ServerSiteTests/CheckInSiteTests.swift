import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerSite
import SharedDomain
import Testing

/// The site's answers, request value in, response value out, at a test clock.
struct CheckInSiteTests {
    /// The check-in id at the end of a 303's receipt address (before its query).
    static func receiptID(_ response: HTTPResponse) -> Int64? {
        response.header("Location")?.split(separator: "?").first?.split(separator: "/").last.flatMap { Int64($0) }
    }

    @Test func aScanIsA303ToTheReceiptWhichOnlyItsDeviceSees() async throws {
        let fixture = SiteFixture()
        let code = fixture.code()
        let scan = await fixture.get("/C/HALL-1/" + code.token)
        #expect(scan.status == 303)
        let location = try await #require(scan.header("Location"))
        let id = try await #require(Self.receiptID(scan))
        #expect(location == "/C/HALL-1/receipt/\(id)")
        #expect(try await fixture.ledger.find(id: id)?.venue == SiteFixture.hall)
        let device = try await #require(SiteFixture.cookie(scan, "qrcheckin_device"))
        #expect(device.count == 60, "the issue time (12 hex digits), 128 random bits and a 64-bit MAC")
        #expect(scan.header("Referrer-Policy") == "no-referrer")
        let receipt = await fixture.get(location, cookies: ["qrcheckin_device": device], language: "ko-KR,ko;q=0.9")
        #expect(receipt.status == 200)
        let html = SiteFixture.text(receipt)
        #expect(html.contains("체크인 완료") && html.contains("HALL-1") && html.contains("2026-11-30 18:00"))
        #expect(html.contains("data-offset=\"32400\""))
        #expect(receipt.header("Cache-Control") == "no-store")
        #expect(await fixture.get(location).status == 404, "no cookie, no receipt")
        #expect(await fixture.get(location, cookies: ["qrcheckin_device": String(repeating: "0", count: 44)]).status == 404)
        #expect(await fixture.get("/C/CAFE/receipt/\(id)", cookies: ["qrcheckin_device": device]).status == 404, "another venue's path")
        #expect(await fixture.get("/C/HALL-1/receipt/1", cookies: ["qrcheckin_device": device]).status == 404, "receipt ids are not a counter")
    }

    @Test func theSameDeviceAgainGetsTheFirstCheckInSaidAgain() async throws {
        let fixture = SiteFixture()
        let first = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let device = try await #require(SiteFixture.cookie(first, "qrcheckin_device"))
        fixture.clock.advance(seconds: 95)
        let again = await fixture.get("/C/HALL-1/" + fixture.code().token, cookies: ["qrcheckin_device": device], query: ["lang": "en"])
        let id = try await #require(Self.receiptID(first))
        #expect(again.status == 303 && again.header("Location")?.hasPrefix("/C/HALL-1/receipt/\(id)?lang=en&again=1&seen=") == true)
        #expect(SiteFixture.cookie(again, "qrcheckin_device") == nil, "a known device keeps its cookie")
        let page = await fixture.get("/C/HALL-1/receipt/\(id)", cookies: ["qrcheckin_device": device], query: ["lang": "en", "again": "1"])
        #expect(SiteFixture.text(page).contains("Already checked in at 18:00"))
    }

    @Test func refusalsHaveTheirPagesAndStatuses() async {
        let fixture = SiteFixture()
        let old = fixture.code(at: SiteFixture.start)
        let ahead = fixture.code(at: SiteFixture.start + 75)  // two windows past the skew
        fixture.clock.advance(seconds: 30)
        let cases: [(String, Int, String)] = [
            ("/C/HALL-1/" + old.token, 410, "Scan the code on the screen again"),
            ("/C/HALL-1/" + ahead.token, 409, "tell the staff"),
            ("/C/HALL-1/1" + String(repeating: "A", count: 40), 403, "Not a check-in code of this venue"),
            ("/C/HALL-1/xyz", 400, "Not a check-in code of this venue"),
            ("/C/hall-1/" + old.token, 400, "Not a check-in code of this venue"),
            ("/C/CAFE/" + old.token, 403, "Not a check-in code of this venue"),
            ("/nowhere", 404, "Page not found"),
            ("/C/HALL-1/receipt/abc", 404, "not a check-in of this device"),
        ]
        for (path, status, words) in cases {
            let response = await fixture.get(path, language: "en")
            #expect(response.status == status, "\(path)")
            #expect(SiteFixture.text(response).contains(words), "\(path)")
            #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        }
        #expect(await fixture.get("/C/HALL-1/" + old.token, method: "HEAD").status == 405)
        #expect(await fixture.get("/C/HALL-1/" + old.token, method: "DELETE").header("Allow") == "GET")
        let unknown = SiteFixture(venues: VenueDirectory(profiles: [SiteFixture.hall: .standard], servesUnlisted: false))
        let cafe = unknown.code(try! VenueID("CAFE"))
        #expect(await unknown.get("/C/CAFE/" + cafe.token).status == 404)
        #expect(await unknown.get("/C/CAFE").status == 404)
    }

    @Test func safeNumbersCheckInAndWrongOnesAreLimitedPerPhone() async throws {
        let fixture = SiteFixture(tries: 3)
        let code = fixture.code()
        #expect(await fixture.get("/C/HALL-1").status == 200)
        let right = await fixture.postSafeNumber(" " + code.safeNumber + " ")
        #expect(right.status == 303)
        #expect(try await fixture.ledger.find(id: try await #require(Self.receiptID(right)))?.method == .safeNumber)
        let phone = ["qrcheckin_device": try await #require(SiteFixture.cookie(right, "qrcheckin_device"))]
        let wrong = code.safeNumber == "00가00가" ? "11가11가" : "00가00가"
        for _ in 0..<3 {
            let response = await fixture.postSafeNumber(wrong, cookies: phone, language: "ko")
            #expect(response.status == 403 && SiteFixture.text(response).contains("맞지 않습니다"))
            #expect(SiteFixture.cookie(response, "qrcheckin_device") == nil, "a refusal gives no device")
        }
        let limited = await fixture.postSafeNumber(code.safeNumber, cookies: phone, language: "ko")
        #expect(limited.status == 429 && limited.header("Retry-After") == "60")
        // The time to try await again after, true without a script; the seconds for the script to count.
        let after = LocalTime(WallTime(seconds: fixture.clock.now().seconds + 60), in: SeoulZone()).second
        #expect(SiteFixture.text(limited).contains("\(after) 이후에 다시 시도하세요") && SiteFixture.text(limited).contains("data-seconds=\"60\""))
        #expect(await fixture.postSafeNumber(wrong, client: "192.0.2.2").status == 403, "another phone is not held back")
        fixture.clock.advance(seconds: 60)
        #expect(await fixture.postSafeNumber(wrong, cookies: phone).status == 403, "one try await forgiven a minute")
        #expect(await fixture.postSafeNumber(wrong, cookies: phone).status == 429)
        #expect(await fixture.get("/C/HALL-1", method: "POST", form: [:], client: "192.0.2.3").status == 400)
    }

    @Test func theVisitorFormRoundTripsAndForgedTicketsAreRefused() async throws {
        let fixture = SiteFixture(venues: VenueDirectory(defaults: VenueProfile(displayName: nil, period: .standard, skew: 1,
                                                                                 duplicateSeconds: 3600, visitorFields: [.name])))
        let code = fixture.code()
        let form = await fixture.get("/C/HALL-1/" + code.token)
        #expect(form.status == 200)
        let device = try await #require(SiteFixture.cookie(form, "qrcheckin_device"))
        let html = SiteFixture.text(form)
        let ticket = try await #require(html.firstRange(of: "name=\"ticket\" value=\"").map { html[$0.upperBound...].prefix { $0 != "\"" } }).description
        fixture.clock.advance(seconds: 120)  // the code expired while the visitor typed
        let posted = await fixture.get("/C/HALL-1/visitor", cookies: ["qrcheckin_device": device], method: "POST",
                                 form: ["ticket": ticket, "name": "  <b>Kim</b>  "])
        #expect(posted.status == 303)
        #expect(try await fixture.ledger.find(id: try await #require(Self.receiptID(posted)))?.entry.visitor?.name == "<b>Kim</b>")
        let remembered = try await #require(SiteFixture.cookie(posted, "qrcheckin_visitor"))
        let phone = ["qrcheckin_device": device]
        #expect(await fixture.get("/C/HALL-1/visitor", cookies: phone, method: "POST", form: ["ticket": "00" + ticket.dropFirst(2), "name": "X"]).status == 400)
        #expect(await fixture.get("/C/HALL-1/visitor", cookies: phone, method: "POST", form: ["ticket": ticket, "name": ""]).status == 400)
        fixture.clock.advance(seconds: VisitorTickets.lifetimeSeconds)
        #expect(await fixture.get("/C/HALL-1/visitor", cookies: phone, method: "POST", form: ["ticket": ticket, "name": "Late"]).status == 400)
        // The remembered fields go straight through next time.
        let next = await fixture.get("/C/HALL-1/" + fixture.code().token, cookies: ["qrcheckin_visitor": remembered])
        #expect(next.status == 303)
    }

    @Test func aFailingLedgerIs503AndNothingIsAcknowledged() async {
        let fixture = SiteFixture()
        fixture.ledger.fail(with: LedgerError(.unavailable, "down"))
        let response = await fixture.get("/C/HALL-1/" + fixture.code().token, language: "en")
        #expect(response.status == 503 && response.header("Retry-After") == "5")
        #expect(SiteFixture.text(response).contains("none was recorded (2026-11-30 18:00:00)"))
        #expect(response.header("Location") == nil)
    }

    @Test func metricsAnswerOnlyLocalClients() async {
        let fixture = SiteFixture()
        _ = await fixture.get("/C/HALL-1/" + fixture.code().token)
        #expect(await fixture.get("/metrics").status == 404)
        let local = await fixture.respond(HTTPRequest(method: "GET", path: "/metrics", clientIsLocal: true))
        #expect(local.status == 200)
        #expect(SiteFixture.text(local).contains("qrcheckin_server_checkins_total{venue=\"HALL-1\",method=\"qr\"} 1"))
    }

    @Test func valuesShownInPagesAreEscaped() async {
        let name = "<script>alert(\"x\")</script>&'"
        let fixture = SiteFixture(venues: VenueDirectory(profiles: [SiteFixture.hall: VenueProfile(
            displayName: name, period: .standard, skew: 1, duplicateSeconds: 60, visitorFields: [])]))
        let html = SiteFixture.text(await fixture.get("/C/HALL-1"))
        #expect(!html.contains("<script>alert") && html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"))
    }
}
