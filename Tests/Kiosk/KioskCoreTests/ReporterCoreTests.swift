import KioskCore
import SharedDomain
import SharedHTTPClient
import SharedJSON
import SharedSystem
import Synchronization
import Testing

/// Nonces 0, 1, 2, … as 16 bytes: each report's is known to the test.
final class CountingNonces: ReportNonceSource, Sendable {
    private let counter = Mutex(0)
    func next() -> ReportNonce {
        let value = counter.withLock { value in
            defer { value += 1 }
            return value
        }
        return ReportNonce(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(value)])
    }
}

/// Drives a `ReporterCore` on a test clock and plays the server: signs answers with the venue's
/// report key (or does not), holds nothing, and reads what the core sends.
struct ReporterHarness {
    static let authenticator = HMACAuthenticator()
    static let secret = try! MasterSecret(bytes: Array(repeating: 7, count: 32))
    static let hall = try! VenueID("HALL-1")
    static let key = try! ReportKey(from: .master(secret), venue: hall, authenticator: authenticator)
    static let signer = ReportAuthenticator(key: key, authenticator: authenticator)

    var core: ReporterCore
    var monotonic: Int64 = 1_000_000
    var wall = WallTime(milliseconds: 1_800_000_000_000)

    init(interval: Int = 30) {
        let setup = ReporterSetup(venue: Self.hall, kiosk: try! KioskName("door-1"), version: "0.1.0", reportTo: "http://server/C/",
                                  intervalSeconds: interval, pid: 42)
        core = ReporterCore(setup: setup, signer: Self.signer, nonces: CountingNonces(), now: ReporterTime(monotonic: monotonic, wall: wall))
    }

    var now: ReporterTime { ReporterTime(monotonic: monotonic, wall: wall) }

    mutating func handle(_ event: ReporterEvent) -> [ReporterEffect] { core.handle(event, at: now) }

    mutating func advance(seconds: Double) {
        monotonic += Int64(seconds * 1000)
        wall = WallTime(milliseconds: wall.milliseconds + Int64(seconds * 1000))
    }

    static func observation(refresh: RefreshMode = .auto, window: Int64 = 120_000_000, health: String = "ok",
                            change: ModeChange? = nil) -> KioskObservation {
        KioskObservation(status: health == "ok" ? .running : .degraded, summary: refresh == .paused ? "paused" : "running",
                         daemon: KioskReport.Daemon(state: refresh == .paused ? .paused : .running, window: refresh == .paused ? nil : window,
                                                    seq: refresh == .paused ? nil : 0, expiresAt: refresh == .paused ? nil : (window + 1) * 15,
                                                    period: 15, health: health, shake: .on, refresh: refresh, modeChange: change,
                                                    clockSynchronized: true, clockMaxErrorSeconds: 0),
                         outputAgeSeconds: .init(png: 1, json: 1, txt: 1), uptimeSeconds: 3600)
    }

    /// The sends among `effects`.
    static func sends(_ effects: [ReporterEffect]) -> [(id: Int, request: OutgoingRequest)] {
        effects.compactMap { if case .send(let id, let request) = $0 { (id, request) } else { nil } }
    }

    static func records(_ effects: [ReporterEffect]) -> [ReporterStatus] {
        effects.compactMap { if case .record(let status) = $0 { status } else { nil } }
    }

    static func applies(_ effects: [ReporterEffect]) -> [KioskSteer] {
        effects.compactMap { if case .apply(let steer) = $0 { steer } else { nil } }
    }

    static func wakes(_ effects: [ReporterEffect]) -> [Int64] {
        effects.compactMap { if case .wake(let at) = $0 { at } else { nil } }
    }

    /// The nonce of a request's signature.
    static func nonce(of request: OutgoingRequest) -> ReportNonce {
        try! ReportSignature(headerValue: request.header(ReportSignature.headerName)!).nonce
    }

    /// A `200` answer signed for `request` (or, with `signedFor`, for another report's nonce).
    static func answer(to request: OutgoingRequest, steer: KioskSteer? = nil, signedFor other: ReportNonce? = nil,
                       key: ReportAuthenticator = signer) -> HTTPResult {
        let body = ReportAnswer(serverTime: 1_800_000_000_500, steer: steer).bodyBytes
        let signature = key.signAnswer(body: body, nonce: other ?? nonce(of: request))
        return .response(IncomingResponse(status: 200, headers: [("Content-Type", "application/json"), (AnswerSignature.headerName, signature.headerValue)],
                                          body: body))
    }

    /// Started, one observation, its report sent: returns that request's id and request.
    mutating func firstReport() -> (id: Int, request: OutgoingRequest) {
        _ = handle(.started(previous: nil))
        return Self.sends(handle(.observed(Self.observation()))).first!
    }
}

@Suite struct ReporterCoreTests {
    typealias H = ReporterHarness

    @Test func theFirstObservationSendsAReportSignedOverItsBody() throws {
        var harness = H()
        let (_, request) = harness.firstReport()
        #expect(request.url == "http://server/C/HALL-1/kiosk?wait=25")
        #expect(request.timeoutMilliseconds == 30_000, "the server's hold and 5 s")
        #expect(request.header("Content-Type") == "application/json")
        let signature = try ReportSignature(headerValue: try #require(request.header("Qrcheckin-Report")))
        #expect(H.signer.isValid(signature, body: request.body))
        let report = try KioskReport(body: request.body)
        #expect(report.wallClock == signature.time && report.wallClock == 1_800_000_000_000)
        #expect(report.venue == H.hall && report.kiosk.rawValue == "door-1" && report.reportInterval == 30)
        #expect(report.daemon?.window == 120_000_000 && report.lastRoundTripMs == nil && report.applied == nil)
    }

    @Test func reportsComeEveryIntervalNotEveryObservation() throws {
        var harness = H()
        let (id, request) = harness.firstReport()
        harness.advance(seconds: 0.05)
        let answered = harness.handle(.completed(id: id, H.answer(to: request)))
        #expect(H.sends(answered).isEmpty)
        #expect(H.wakes(answered) == [harness.monotonic - 50 + 30_000], "due 30 s after it was sent")
        #expect(H.records(answered).last?.phase == .reporting && H.records(answered).last?.lastRoundTripMs == 50)
        var sent = 0
        for second in 1...29 {
            harness.advance(seconds: 1)
            // The window moves on every period: codes rotating is no news.
            sent += H.sends(harness.handle(.observed(H.observation(window: 120_000_000 + Int64(second / 15))))).count
        }
        #expect(sent == 0)
        harness.advance(seconds: 0.96)
        let due = H.sends(harness.handle(.tick))
        #expect(due.count == 1)
        #expect(try KioskReport(body: due[0].request.body).lastRoundTripMs == 50, "the last exchange's round trip bounds the skew")
    }

    @Test func aChangeIsReportedAtOnceAndReplacesTheHeldReport() throws {
        var harness = H()
        let (first, _) = harness.firstReport()
        harness.advance(seconds: 3)
        // Still held by the server (a long poll); the daemon was paused meanwhile.
        let effects = harness.handle(.observed(H.observation(refresh: .paused, change: ModeChange(source: .local, by: OperatorName("alice"), at: 1))))
        #expect(effects.first == .cancel(id: first))
        let replaced = try #require(H.sends(effects).first)
        #expect(try KioskReport(body: replaced.request.body).daemon?.refresh == .paused)
        // An answer to the cancelled report is no longer awaited.
        #expect(harness.handle(.completed(id: first, .failure("cancelled"))).isEmpty)
        // Health and the clock's synchronisation are news too; an output's age is not.
        var other = H()
        let (_, request) = other.firstReport()
        _ = other.handle(.completed(id: 1, H.answer(to: request)))
        var older = H.observation()
        older.outputAgeSeconds.png = 9
        #expect(H.sends(other.handle(.observed(older))).isEmpty)
        #expect(H.sends(other.handle(.observed(H.observation(health: "degraded")))).count == 1)
    }

    @Test func aVerifiedSteerIsAppliedOnceAndReportedAtOnce() throws {
        var harness = H()
        let (id, request) = harness.firstReport()
        let steer = KioskSteer(id: 7, refresh: .paused, by: OperatorName("mina")!, at: 1_799_999_999)
        let effects = harness.handle(.completed(id: id, H.answer(to: request, steer: steer)))
        #expect(H.applies(effects) == [steer])
        #expect(H.sends(effects).isEmpty)
        // Nothing is sent while it is applied, whatever is observed.
        #expect(H.sends(harness.handle(.observed(H.observation()))).isEmpty)
        harness.advance(seconds: 0.02)
        let applied = KioskReport.Applied(steer: 7, at: 1_800_000_000, outcome: "ok")
        let paused = H.observation(refresh: .paused, change: ModeChange(source: .console, by: OperatorName("mina"), at: 1_800_000_000))
        let after = harness.handle(.steerApplied(applied, paused))
        let report = try #require(H.sends(after).first)
        let body = try KioskReport(body: report.request.body)
        #expect(body.applied == applied && body.daemon?.modeChange?.source == .console)
        // The server may say it again (its answer lost): it is not applied twice.
        #expect(H.applies(harness.handle(.completed(id: report.id, H.answer(to: report.request, steer: steer)))).isEmpty)
        #expect(harness.core.status.applied == applied)
    }

    @Test func aForgedAnswerSteersNothingAndCountsAsAFailure() {
        var harness = H()
        let (id, request) = harness.firstReport()
        let steer = KioskSteer(id: 1, refresh: .paused, by: OperatorName("mallory")!, at: 0)
        // Signed with another venue's report key.
        let other = ReportAuthenticator(key: try! ReportKey(from: .master(H.secret), venue: try! VenueID("HALL-2"), authenticator: H.authenticator),
                                        authenticator: H.authenticator)
        let effects = harness.handle(.completed(id: id, H.answer(to: request, steer: steer, key: other)))
        #expect(H.applies(effects).isEmpty)
        let status = harness.core.status
        #expect(status.phase == .failing && status.failed == 1 && status.lastError?.contains("not signed with this venue's report key") == true)
        #expect(H.wakes(effects) == [harness.monotonic + 30_000], "backing off: the interval first")
        // Unsigned, or a header of the wrong shape: the same.
        for headers in [[(name: String, value: String)](), [(AnswerSignature.headerName, "v1; mac=00")]] {
            var fresh = H()
            let (id, _) = fresh.firstReport()
            let body = ReportAnswer(serverTime: 1, steer: steer).bodyBytes
            #expect(H.applies(fresh.handle(.completed(id: id, .response(IncomingResponse(status: 200, headers: headers, body: body))))).isEmpty)
            #expect(fresh.core.status.phase == .failing)
        }
    }

    @Test func anAnswerReplayedFromAnotherReportSteersNothing() throws {
        var harness = H()
        let (firstID, first) = harness.firstReport()
        let steer = KioskSteer(id: 3, newCode: true, by: OperatorName("mina")!, at: 0)
        // The genuine answer to the first report, captured; the first report gets a plain answer.
        let captured = H.answer(to: first, steer: steer)
        _ = harness.handle(.completed(id: firstID, H.answer(to: first)))
        harness.advance(seconds: 30)
        let (secondID, second) = try #require(H.sends(harness.handle(.tick)).first)
        #expect(H.nonce(of: second) != H.nonce(of: first))
        let effects = harness.handle(.completed(id: secondID, captured))
        #expect(H.applies(effects).isEmpty)
        #expect(harness.core.status.lastError?.contains("another report's answer") == true)
    }

    @Test func whileTheServerIsAwayAttemptsBackOffDoublingToFiveMinutes() {
        var harness = H()
        var (id, _) = harness.firstReport()
        var delays: [Int64] = []
        for _ in 1...7 {
            let effects = harness.handle(.completed(id: id, .failure("Failed to connect to server port 80: Connection refused")))
            let wake = H.wakes(effects).last!
            delays.append((wake - harness.monotonic) / 1000)
            // A change meanwhile waits for the next attempt.
            harness.advance(seconds: 1)
            #expect(H.sends(harness.handle(.observed(H.observation(health: "degraded")))).isEmpty)
            harness.monotonic = wake
            let retry = H.sends(harness.handle(.tick))
            #expect(retry.count == 1)
            id = retry[0].id
        }
        #expect(delays == [30, 60, 120, 240, 300, 300, 300])
        #expect(harness.core.status.failuresInARow == 7 && harness.core.status.failed == 7 && harness.core.status.sent == 8)
        // It works again: failures reset, the interval is back.
        let effects = harness.handle(.completed(id: id, .response(IncomingResponse(status: 500))))
        #expect(harness.core.status.lastError == "the server refused the report: HTTP 500")
        harness.monotonic = H.wakes(effects).last!
        let retry = H.sends(harness.handle(.tick))[0]
        _ = harness.handle(.completed(id: retry.id, H.answer(to: retry.request)))
        #expect(harness.core.status.phase == .reporting && harness.core.status.failuresInARow == 0 && harness.core.status.lastError == nil)
    }

    @Test func retryAfterIsHonouredWithinTheBackoffsBound() {
        var harness = H()
        let (id, _) = harness.firstReport()
        let problem = Array(#"{"type":"about:blank","title":"Too Many Requests","detail":"slow down\n\u001b[2J"}"#.utf8)
        let effects = harness.handle(.completed(id: id, .response(IncomingResponse(status: 429, headers: [("Retry-After", "120")], body: problem))))
        #expect(H.wakes(effects) == [harness.monotonic + 120_000])
        #expect(harness.core.status.lastError == "the server refused the report: HTTP 429 (Too Many Requests: slow down  [2J)")
        var other = H()
        let (otherID, _) = other.firstReport()
        let later = other.handle(.completed(id: otherID, .response(IncomingResponse(status: 429, headers: [("retry-after", "86400")]))))
        #expect(H.wakes(later) == [other.monotonic + 300_000])
    }

    @Test func aSteerAppliedBeforeARestartIsNotAppliedAgain() throws {
        var harness = H()
        let applied = KioskReport.Applied(steer: 7, at: 1, outcome: "ok")
        let previous = ReporterStatus(phase: .stopped, reportTo: "http://server/C", venue: "HALL-1", kiosk: "door-1", pid: 1, updatedAt: 1,
                                      applied: applied)
        _ = harness.handle(.started(previous: previous))
        let (id, request) = H.sends(harness.handle(.observed(H.observation()))).first!
        #expect(try KioskReport(body: request.body).applied == applied)
        let steer = KioskSteer(id: 7, refresh: .paused, by: OperatorName("mina")!, at: 0)
        #expect(H.applies(harness.handle(.completed(id: id, H.answer(to: request, steer: steer)))).isEmpty)
    }

    @Test func stoppingCancelsTheHeldReportAndSaysSo() {
        var harness = H()
        let (id, _) = harness.firstReport()
        let effects = harness.handle(.stop)
        #expect(effects.first == .cancel(id: id))
        #expect(H.records(effects).last?.phase == .stopped)
        #expect(effects.last == .exit)
        #expect(harness.handle(.observed(H.observation())).isEmpty)
    }

    @Test func aShortIntervalHoldsForTheIntervalAndTheStatusIsRecordedOnlyWhenItChanges() throws {
        var harness = H(interval: 5)
        let (id, request) = harness.firstReport()
        #expect(request.url.hasSuffix("?wait=5") && request.timeoutMilliseconds == 10_000)
        let answered = harness.handle(.completed(id: id, H.answer(to: request)))
        #expect(H.records(answered).count == 1)
        harness.advance(seconds: 1)
        #expect(H.records(harness.handle(.observed(H.observation()))).isEmpty, "nothing new to write")
    }
}
