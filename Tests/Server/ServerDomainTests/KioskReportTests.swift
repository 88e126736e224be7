import ServerDomain
import ServerLedgerTesting
import SharedDomain
import SharedJSON
import SharedSystem
import Testing

/// A kiosk's report as the reporter sends it, and the server's reception, judge and bell.
enum KioskReports {
    static let door = try! KioskName("door-1")
    static let start = Fixture.start

    static func report(at milliseconds: Int64, venue: VenueID = Fixture.hall, window: Int64? = nil, roundTrip: Int64? = 40,
                       refresh: RefreshMode = .auto, health: String = "ok", reason: String? = nil, synchronized: Bool? = true,
                       version: String = "0.1.0", period: Int64 = 15) -> KioskReport {
        KioskReport(venue: venue, kiosk: door, version: version, reportInterval: 30, wallClock: milliseconds, lastRoundTripMs: roundTrip,
                    status: .running, summary: "running",
                    daemon: KioskReport.Daemon(state: .running, window: window ?? milliseconds / (period * 1000), seq: 3, period: period,
                                               health: health, reason: reason, shake: .on, refresh: refresh, clockSynchronized: synchronized))
    }

    static func signer(_ venue: VenueID = Fixture.hall, secret: MasterSecret = Fixture.secret) -> ReportAuthenticator {
        ReportAuthenticator(key: try! ReportKey(from: .master(secret), venue: venue, authenticator: HMACAuthenticator()),
                            authenticator: HMACAuthenticator())
    }

    static func nonce() -> ReportNonce { ReportNonce(bytes: SecureRandom.bytes(ReportNonce.byteCount)) }
}

struct KioskReceptionTests {
    let clock = TestClock(seconds: KioskReports.start)
    let ledger = InMemoryLedger()
    /// One reception for the whole test: its rate budgets are kept between reports.
    let reception: KioskReportReception

    init() {
        reception = KioskReportReception(fleet: ledger, keyring: ReportKeyring(sources: [.master(Fixture.secret)], authenticator: HMACAuthenticator()),
                                         venues: VenueDirectory(), clock: clock)
    }

    func signed(_ report: KioskReport, by signer: ReportAuthenticator = KioskReports.signer(), nonce: ReportNonce = KioskReports.nonce(),
                body: [UInt8]? = nil) -> (header: String, body: [UInt8], nonce: ReportNonce) {
        let bytes = body ?? report.bodyBytes
        return (signer.sign(body: bytes, time: report.wallClock, nonce: nonce).headerValue, bytes, nonce)
    }

    @Test func aSignedReportIsStoredAndItsAnswerIsSignedOverItsNonce() async throws {
        let sent = signed(KioskReports.report(at: clock.now().milliseconds))
        let verified = try reception.verify(venue: Fixture.hall, header: sent.header, body: sent.body, client: "192.0.2.1")
        #expect(try await reception.store(verified) == nil)
        #expect(try await ledger.kiosks(venue: nil).map(\.key) == [KioskKey(venue: Fixture.hall, name: KioskReports.door)])
        let answer = reception.answer(verified, steer: nil)
        let signature = try AnswerSignature(headerValue: answer.signature)
        #expect(KioskReports.signer().isValidAnswer(signature, body: answer.body, nonce: sent.nonce))
        #expect(!KioskReports.signer().isValidAnswer(signature, body: answer.body, nonce: KioskReports.nonce()), "bound to that report's nonce")
    }

    @Test func forgedOtherVenuesStaleOversizedAndReplayedReportsAreRefusedAndNothingIsStored() async throws {
        let now = clock.now().milliseconds
        let other = try VenueID("CAFE")
        let otherSecret = try MasterSecret(bytes: Array(repeating: 7, count: 32))
        func refusal(_ body: () throws(KioskReportRefusal) -> Void) -> KioskReportRefusal? {
            do throws(KioskReportRefusal) { try body(); return nil } catch { return error }
        }
        let forged = signed(KioskReports.report(at: now), by: KioskReports.signer(secret: otherSecret))
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: forged.header, body: forged.body, client: "c") }
                == .badSignature)
        let otherVenue = signed(KioskReports.report(at: now, venue: other), by: KioskReports.signer(other))
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: otherVenue.header, body: otherVenue.body, client: "c") }
                == .badSignature, "another venue's key")
        let altered = signed(KioskReports.report(at: now))
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: altered.header, body: altered.body + [0x20], client: "c") }
                == .badSignature)
        let stale = signed(KioskReports.report(at: now - 301_000))
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: stale.header, body: stale.body, client: "c") }
                == .stale(offsetMilliseconds: -301_000))
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: stale.header, body: [], bodyTooLarge: true, client: "c") }
                == .tooLarge)
        #expect(refusal { () throws(KioskReportRefusal) in _ = try reception.verify(venue: Fixture.hall, header: nil, body: altered.body, client: "c") } == .unsigned)
        #expect(try await ledger.kiosks(venue: nil).isEmpty, "nothing refused is stored")
        let good = try reception.verify(venue: Fixture.hall, header: altered.header, body: altered.body, client: "c")
        _ = try await reception.store(good)
        let again = try reception.verify(venue: Fixture.hall, header: altered.header, body: altered.body, client: "c")
        await #expect(throws: KioskReportRefusal.replayed) { _ = try await reception.store(again) }
    }

    @Test func aKioskReportingTooOftenIsToldToWait() throws {
        var refused: KioskReportRefusal?
        for _ in 0..<(KioskReportReception.budget.burst + 1) {
            let sent = signed(KioskReports.report(at: clock.now().milliseconds))
            do throws(KioskReportRefusal) {
                _ = try reception.verify(venue: Fixture.hall, header: sent.header, body: sent.body, client: "c")
            } catch {
                refused = error
            }
        }
        #expect(refused == .tooMany(retryAfterSeconds: 1))
    }
}

struct KioskJudgeTests {
    static let judge = KioskJudge(venues: VenueDirectory(), serverVersion: "0.2.0")

    func verdict(_ report: KioskReport, receivedAt: Int64, now: Int64) -> KioskVerdict {
        Self.judge.verdict(on: KioskRecord(report: report, receivedAt: WallTime(milliseconds: receivedAt)), at: WallTime(milliseconds: now))
    }

    @Test func okThenLateThenOfflineOnTheClock() {
        let at = KioskReports.start * 1000
        let report = KioskReports.report(at: at, version: "0.2.0")
        #expect(verdict(report, receivedAt: at, now: at + 60_000).state == .ok)
        #expect(verdict(report, receivedAt: at, now: at + 61_000).state == .late, "two intervals of 30 s without a report")
        #expect(verdict(report, receivedAt: at, now: at + 599_000).state == .late)
        #expect(verdict(report, receivedAt: at, now: at + 600_000).state == .offline, "10 minutes")
        #expect(verdict(report, receivedAt: at, now: at).isHealthy)
    }

    @Test func problemsInWords() {
        let at = KioskReports.start * 1000
        let fast = verdict(KioskReports.report(at: at + 41_000, window: (at + 41_000) / 15_000), receivedAt: at, now: at)
        #expect(fast.clock.seconds == 41 && fast.problems.contains(.clock(seconds: 41)))
        #expect(KioskProblem.clock(seconds: 41).english == "clock 41 s fast" && KioskProblem.clock(seconds: -3).english == "clock 3 s slow")
        #expect(fast.problems.contains { $0.code == "future-code" }, "its window is ahead of the server's beyond the skew: \(fast.problems)")
        let expired = verdict(KioskReports.report(at: at, window: at / 15_000 - 3), receivedAt: at, now: at)
        #expect(expired.problems.first == .expiredCode(windows: 3))
        #expect(expired.problems.first?.english == "shows an expired code (3 windows behind)")
        let many = verdict(KioskReports.report(at: at, refresh: .paused, health: "degraded", reason: "disk full", synchronized: false,
                                               version: "0.1.0"), receivedAt: at, now: at)
        #expect(many.problems.map(\.english) == ["not synchronised", "paused", "degraded: disk full", "old version (0.1.0)"])
        #expect(many.problems.map(\.korean).contains("일시정지됨"))
        let period = verdict(KioskReports.report(at: at, version: "0.2.0", period: 2), receivedAt: at, now: at)
        #expect(period.problems == [.period(kiosk: 2, server: 15)])
    }
}

struct SteerBellTests {
    static let key = KioskKey(venue: Fixture.hall, name: KioskReports.door)

    @Test func aRingBetweenSubscribingAndWaitingIsNotMissed() async {
        let bell = SteerBell()
        let ticket = bell.subscribe(Self.key)
        bell.ring(Self.key)
        #expect(await ticket.wait(upTo: .seconds(60), clock: ContinuousClock()) == .rung)
        #expect(bell.waiting == 0)
    }

    @Test func aHeldReportWakesOnARingTimesOutOrClosesWithTheServer() async {
        let bell = SteerBell()
        let clock = ContinuousClock()
        async let rung = bell.subscribe(Self.key).wait(upTo: .seconds(60), clock: clock)
        while bell.waiting == 0 { await Task.yield() }
        bell.ring(KioskKey(venue: Fixture.hall, name: try! KioskName("other")))
        bell.ring(Self.key)
        #expect(await rung == .rung)
        #expect(await bell.subscribe(Self.key).wait(upTo: .milliseconds(20), clock: clock) == .timedOut)
        async let closed = bell.subscribe(Self.key).wait(upTo: .seconds(60), clock: clock)
        while bell.waiting == 0 { await Task.yield() }
        bell.close()
        #expect(await closed == .closing)
        #expect(await bell.subscribe(Self.key).wait(upTo: .seconds(60), clock: clock) == .closing, "once closed, at once")
    }
}
