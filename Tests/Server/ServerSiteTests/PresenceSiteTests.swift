import ServerDomain
import ServerHTTPTypes
import ServerSite
import SharedDomain
import Testing

/// Presence through the site (issue 32), request value in, response value out: the full page,
/// the exit kiosk, the receipt's check-out form, and the occupancy JSON with its CORS.
struct PresenceSiteTests {
    static let exit = try! VenueID("HALL-1-OUT")

    static func fixture(capacity: Int? = 2, origins: [String] = []) async -> SiteFixture {
        let hall = VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [],
                                presence: VenuePresence(capacity: capacity))
        let exit = VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [],
                                presence: VenuePresence(exitOf: SiteFixture.hall))
        return SiteFixture(venues: VenueDirectory(profiles: [SiteFixture.hall: hall, Self.exit: exit]), occupancyOrigins: origins)
    }

    static func enter(_ fixture: SiteFixture) async throws -> (device: String, location: String) {
        let scan = await fixture.get("/C/HALL-1/" + fixture.code().token)
        #expect(scan.status == 303)
        return (try await #require(SiteFixture.cookie(scan, "qrcheckin_device")), try await #require(scan.header("Location")))
    }

    @Test func aFullVenueRecordsNothingAndSaysHowManyAreInside() async throws {
        let fixture = await Self.fixture()
        _ = try await Self.enter(fixture)
        _ = try await Self.enter(fixture)
        let full = await fixture.get("/C/HALL-1/" + fixture.code().token, query: ["lang": "en"])
        #expect(full.status == 503 && full.header("Retry-After") == "30")
        #expect(SiteFixture.text(full).contains("Full — 2 of 2 inside, please wait"))
        #expect(SiteFixture.cookie(full, "qrcheckin_device") == nil, "a refused phone gets no device")
        #expect(try await fixture.ledger.count(CheckInQuery()) == 2)
        #expect(fixture.ledger.refusals().last?.reason == .full)
        let korean = await fixture.get("/C/HALL-1/" + fixture.code().token, query: ["lang": "ko"])
        #expect(SiteFixture.text(korean).contains("만석 — 2명 중 2명 입장"))
    }

    @Test func theExitKiosksCodeChecksTheDeviceOutOnceWithItsStay() async throws {
        let fixture = await Self.fixture()
        let (device, _) = try await Self.enter(fixture)
        fixture.clock.advance(seconds: 97 * 60)
        let out = await fixture.get("/C/HALL-1-OUT/" + fixture.code(Self.exit).token, cookies: ["qrcheckin_device": device], query: ["lang": "en"])
        #expect(out.status == 200)
        #expect(SiteFixture.text(out).contains("Checked out at 19:37") && SiteFixture.text(out).contains("You stayed 1 h 37 min"))
        let again = await fixture.get("/C/HALL-1-OUT/" + fixture.code(Self.exit).token, cookies: ["qrcheckin_device": device], query: ["lang": "ko"])
        #expect(again.status == 200 && SiteFixture.text(again).contains("이미 19:37에 퇴장했습니다"))
        let stranger = await fixture.get("/C/HALL-1-OUT/" + fixture.code(Self.exit).token)
        #expect(stranger.status == 404 && SiteFixture.cookie(stranger, "qrcheckin_device") == nil, "no visit, no cookie")
    }

    @Test func theReceiptsFormChecksOutOnlyForItsDevice() async throws {
        let fixture = await Self.fixture()
        let (device, location) = try await Self.enter(fixture)
        let (other, _) = try await Self.enter(fixture)
        let receipt = await fixture.get(location, cookies: ["qrcheckin_device": device], query: ["lang": "en"])
        let html = SiteFixture.text(receipt)
        #expect(html.contains("<form method=\"post\" action=\"\(location)?lang=en\"") && html.contains("Check out"))
        let token = try await #require(SiteFixture.hiddenInput(receipt, "form-token"))
        #expect(await fixture.get(location, cookies: ["qrcheckin_device": other], method: "POST", form: ["form-token": token]).status == 400,
                "another device's cookie does not match the token")
        #expect(await fixture.get(location, cookies: ["qrcheckin_device": device], method: "POST", form: [:]).status == 400, "no token")
        #expect(await fixture.get(location, method: "POST", form: ["form-token": token]).status == 404, "no cookie")
        fixture.clock.advance(seconds: 600)
        let out = await fixture.get(location, cookies: ["qrcheckin_device": device], query: ["lang": "en"], method: "POST", form: ["form-token": token])
        #expect(out.status == 200 && SiteFixture.text(out).contains("Checked out at 18:10"))
        let id = try await #require(CheckInSiteTests.receiptID(await fixture.get("/C/HALL-1/" + fixture.code().token, cookies: ["qrcheckin_device": other])))
        #expect(try await fixture.ledger.find(id: id)?.exit == nil, "the other device is still inside")
        let after = await fixture.get(location, cookies: ["qrcheckin_device": device], query: ["lang": "en"])
        #expect(SiteFixture.text(after).contains("Already checked out at 18:10") && !SiteFixture.text(after).contains("<form"))
    }

    @Test func occupancyIsPublicCountsWithCORSForConfiguredOriginsOnly() async throws {
        let fixture = await Self.fixture(origins: ["https://door.example.org"])
        _ = try await Self.enter(fixture)
        let answer = await fixture.get("/C/HALL-1/occupancy", headers: ["origin": "https://door.example.org"])
        #expect(answer.status == 200 && answer.header("Content-Type") == "application/json" && answer.header("Cache-Control") == "max-age=1")
        #expect(SiteFixture.text(answer) == #"{"venue":"HALL-1","inside":1,"capacity":2,"at":"2026-11-30T09:00:00Z"}"# + "\n")
        #expect(answer.header("Access-Control-Allow-Origin") == "https://door.example.org")
        #expect(await fixture.get("/C/HALL-1/occupancy", headers: ["origin": "https://evil.example"]).header("Access-Control-Allow-Origin") == nil)
        let unlimited = await Self.fixture(capacity: nil)
        #expect(SiteFixture.text(await unlimited.get("/C/HALL-1/occupancy")).contains(#""capacity":null"#))
        #expect(await fixture.get("/C/hall/occupancy").status == 404)
        #expect(await fixture.get("/C/HALL-1/occupancy", method: "POST").status == 405)
    }
}
