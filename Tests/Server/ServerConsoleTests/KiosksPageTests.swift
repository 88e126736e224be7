import ServerConsole
import ServerDomain
import ServerHTTPTypes
import ServerLedgerTesting
import SharedDomain
import Testing

/// The console's Kiosks page: stewards see each kiosk's light and problems in words (ko, en);
/// supervisors steer (audited, "applied" once the kiosk says so); only admins forget.
struct KiosksPageTests {
    static func page(_ fixture: ConsoleFixture, _ cookie: String, lang: String = "en") async -> (HTTPResponse, String) {
        let response = await fixture.send(HTTPRequest(method: "GET", path: ConsolePage.kiosks.path, query: ["lang": lang],
                                                      cookies: ["qrcheckin_console": cookie]))
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    static func post(_ fixture: ConsoleFixture, _ cookie: String, _ action: String, kiosk: String = "door-1") async -> HTTPResponse {
        let (page, _) = await page(fixture, cookie)
        return await fixture.send(HTTPRequest(method: "POST", path: ConsolePage.kiosks.path,
                                              headers: ["sec-fetch-site": "same-origin", "host": "127.0.0.1:8081"],
                                              cookies: ["qrcheckin_console": cookie],
                                              form: ["form-token": ConsoleFixture.formToken(page) ?? "", "action": action, "venue": "HALL-1", "kiosk": kiosk]))
    }

    @Test func stewardsSeeTheLightAndProblemsInWordsButCannotSteer() async throws {
        let fixture = await ConsoleFixture()
        try await fixture.reportKiosk("door-1", paused: true)
        let steward = try #require(await fixture.signIn("steward").cookie)
        let (response, html) = await Self.page(fixture, steward)
        #expect(response.status == 200)
        #expect(html.contains("door-1") && html.contains("light-ok") && html.contains("<li>paused</li>"), "\(html)")
        #expect(!html.contains("name=\"action\""), "a steward has no buttons")
        let (_, korean) = await Self.page(fixture, steward, lang: "ko")
        #expect(korean.contains("<li>일시정지됨</li>") && korean.contains("정상 (ok)"))
        #expect(await Self.post(fixture, steward, "pause").status == 403)
        fixture.clock.advance(seconds: 61)
        #expect(await Self.page(fixture, steward).1.contains("light-late"), "no report for two intervals: late")
        fixture.clock.advance(seconds: 600)
        #expect(await Self.page(fixture, steward).1.contains("light-offline"))
    }

    @Test func supervisorsSteerAndSeeItAppliedAdminsForget() async throws {
        let fixture = await ConsoleFixture()
        try await fixture.reportKiosk("door-1")
        let supervisor = try #require(await fixture.signIn("supervisor").cookie)
        #expect(await Self.post(fixture, supervisor, "pause").status == 303)
        let steer = try #require(try await fixture.ledger.pendingSteer(for: KioskKey(venue: VenueID("HALL-1"), name: KioskName("door-1"))))
        #expect(steer.refresh == .paused && steer.by.rawValue == "supervisor")
        #expect(await Self.page(fixture, supervisor).1.contains("pending"))
        // The kiosk applies it and says so in its next report.
        let report = KioskReport(venue: try VenueID("HALL-1"), kiosk: try KioskName("door-1"), version: "0.1.0", reportInterval: 30,
                                 wallClock: fixture.clock.now().milliseconds, status: .running, summary: "running",
                                 daemon: KioskReport.Daemon(state: .running, window: 1, seq: 1, period: 15, health: "ok", shake: .on, refresh: .paused),
                                 applied: KioskReport.Applied(steer: steer.id, at: fixture.clock.now().seconds, outcome: "ok"))
        _ = try await fixture.ledger.receive(KioskReceipt(report: report, body: [], nonce: ReportNonce(bytes: Array(repeating: 9, count: 16)),
                                                          signedAt: fixture.clock.now().milliseconds, receivedAt: fixture.clock.now()),
                                             replayWindowMilliseconds: 300_000)
        let (_, html) = await Self.page(fixture, supervisor)
        #expect(html.contains("applied 00:00:00") || html.contains("applied "), "\(html)")
        #expect(html.contains("name=\"action\" value=\"resume\""), "a paused kiosk offers resume")
        #expect(await Self.post(fixture, supervisor, "forget").status == 403, "only admins forget")
        #expect(await Self.post(fixture, supervisor, "new-code", kiosk: "nobody").status == 404)
        let admin = try #require(await fixture.signIn("admin").cookie)
        #expect(await Self.post(fixture, admin, "forget").status == 303)
        #expect(try await fixture.ledger.kiosks(venue: nil).isEmpty)
        let actions = try await ConsoleAuditTests.entries(fixture.ledger).map(\.action)
        #expect(actions.filter { $0 == .kioskSteer || $0 == .kioskForget } == [.kioskSteer, .kioskForget])
    }
}
