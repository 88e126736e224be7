import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Testing

/// The fleet's periodic look: each change of a kiosk's light or problems announced once, a
/// kiosk turning offline told once, a forgotten kiosk dropped.
struct KioskWatchTests {
    let clock = TestClock(seconds: KioskReports.start)
    let ledger = InMemoryLedger()
    var watch: KioskWatch { KioskWatch(fleet: ledger, judge: KioskJudgeTests.judge, clock: clock) }
    var key: KioskKey { KioskKey(venue: Fixture.hall, name: KioskReports.door) }

    func report(refresh: RefreshMode = .auto, nonce: UInt8) async throws {
        let now = clock.now()
        let report = KioskReports.report(at: now.milliseconds, refresh: refresh, version: "0.2.0")
        _ = try await ledger.receive(KioskReceipt(report: report, body: report.bodyBytes, nonce: ReportNonce(bytes: Array(repeating: nonce, count: ReportNonce.byteCount)),
                                                  signedAt: now.milliseconds, receivedAt: now), replayWindowMilliseconds: 300_000)
    }

    @Test func eachChangeIsAnnouncedOnceAndOfflineToldOnce() async throws {
        var memory = KioskWatch.Memory()
        try await report(nonce: 1)
        var look = try #require(await watch.look(&memory))
        #expect(look.announced == [KioskAnnouncement(key: key, state: .ok, problems: [])], "a new kiosk: its first state")
        look = try #require(await watch.look(&memory))
        #expect(look.announced.isEmpty, "nothing changed: nothing written")

        clock.advance(seconds: 15)
        try await report(refresh: .paused, nonce: 2)
        look = try #require(await watch.look(&memory))
        #expect(look.announced == [KioskAnnouncement(key: key, state: .ok, problems: ["paused"])], "paused: news")

        clock.advance(seconds: 61)
        look = try #require(await watch.look(&memory))
        #expect(look.announced.map(\.state) == [.late] && look.turnedOffline.isEmpty, "two intervals of silence: late")
        clock.advance(seconds: 600)
        look = try #require(await watch.look(&memory))
        #expect(look.announced.map(\.state) == [.offline] && look.turnedOffline == [key: 661], "offline, told once with its silence")
        look = try #require(await watch.look(&memory))
        #expect(look.announced.isEmpty && look.turnedOffline.isEmpty, "once")

        try await report(nonce: 3)
        look = try #require(await watch.look(&memory))
        #expect(look.announced == [KioskAnnouncement(key: key, state: .ok, problems: [])] && look.back == [key], "back, and no longer paused")
    }

    @Test func anotherServerTellsWhatThisOneWouldHave() async throws {
        var mine = KioskWatch.Memory(), theirs = KioskWatch.Memory()
        try await report(nonce: 1)
        #expect(try #require(await watch.look(&theirs)).announced.count == 1)
        #expect(try #require(await watch.look(&mine)).announced.isEmpty, "the ledger already holds it: told once for the database, nothing written")
        clock.advance(seconds: 61)
        #expect(try #require(await watch.look(&mine)).announced.map(\.state) == [.late])
        #expect(try #require(await watch.look(&theirs)).announced.isEmpty)
    }
}
