import ServerDomain
import ServerWebhooks
import SharedAsync
import SharedDomain
import SharedHTTPClient
import SharedSystem
import Synchronization
import Testing

/// The delivery service against an outbox and a receiver in memory, on a stopped clock: what it
/// sends (Standard Webhooks' headers, a signature the signer verifies, the payload) and what it
/// records for each answer.
@Suite struct WebhookDeliveryTests {
    static let secret = WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!
    static let now = WallTime(milliseconds: 1_796_029_200_000)

    struct StoppedClock: WallClock {
        func now() -> WallTime { WebhookDeliveryTests.now }
    }

    /// An outbox of fixed events; what was claimed and recorded.
    final class Outbox: WebhookLedger {
        let state: Mutex<(events: [WebhookEvent], results: [WebhookResult])>
        init(_ events: [WebhookEvent]) { state = Mutex((events, [])) }

        func webhookEndpoints() async throws(LedgerError) -> [WebhookEndpoint] {
            [WebhookEndpoint(name: "crm", url: "https://crm.example.org/hook", secret: WebhookDeliveryTests.secret, created: WebhookDeliveryTests.now)]
        }
        func claimWebhookEvents(now: WallTime, leaseUntil: WallTime, limit: Int) async throws(LedgerError) -> [WebhookEvent] {
            state.withLock { state in
                let claimed = state.events
                state.events = []
                return claimed
            }
        }
        func recordWebhookResults(_ results: [WebhookResult]) async throws(LedgerError) { state.withLock { $0.results += results } }
        func webhookAttempts(endpoint: String?, limit: Int) async throws(LedgerError) -> [WebhookAttempt] { [] }
        func webhookEvents(endpoint: String?, state: WebhookEventState?, limit: Int) async throws(LedgerError) -> [WebhookEvent] { [] }
        func webhookCounts() async throws(LedgerError) -> WebhookCounts { WebhookCounts() }
        func purgeWebhooks(eventsBefore: WallTime, attemptsBefore: WallTime) async throws(LedgerError) -> Int { 0 }
    }

    /// A receiver answering each request by its order; it keeps the requests.
    final class Receiver: HTTPTransport, @unchecked Sendable {
        let answers: [HTTPResult]
        var requests: [OutgoingRequest] = []
        var started: [Int] = []
        init(_ answers: [HTTPResult]) { self.answers = answers }
        func start(_ request: OutgoingRequest, id: Int) throws(HTTPTransportError) {
            requests.append(request)
            started.append(id)
        }
        func cancel(_ id: Int) {}
        func wait(timeoutMilliseconds: Int32, readable descriptors: [Int32]) throws(HTTPTransportError)
            -> (results: [(id: Int, result: HTTPResult)], readable: Set<Int32>) {
            defer { started = [] }
            return (started.enumerated().map { ($1, answers[requests.count - started.count + $0]) }, [])
        }
    }

    static func event(_ id: Int64, attempts: Int = 0) -> WebhookEvent {
        WebhookEvent(id: id, endpoint: "crm", type: .checkin, time: now, venue: try! VenueID("HALL-1"), checkIn: 4817325, method: "qr",
                     occupancy: 3, visitorName: nil, visitorPhone: nil, attempts: attempts, next: now)
    }

    @Test func signsSendsAndRecordsEachAnswer() async throws {
        let outbox = Outbox([Self.event(1), Self.event(2), Self.event(3), Self.event(4, attempts: 9)])
        let receiver = Receiver([.response(IncomingResponse(status: 204)), .response(IncomingResponse(status: 429, headers: [("Retry-After", "600")])),
                                 .response(IncomingResponse(status: 410)), .failure("no answer within 15s")])
        let pool = try BlockingPool(threads: 1, name: "test")
        let delivery = WebhookDelivery(ledger: outbox, clock: StoppedClock(), pool: pool, transport: { receiver })
        #expect(try await delivery.pass() == 4)
        await pool.shutdown()
        let request = try #require(receiver.requests.first)
        #expect(request.url == "https://crm.example.org/hook" && request.timeoutMilliseconds == 15_000)
        #expect(request.header("webhook-id") == "msg_1" && request.header("webhook-timestamp") == "1796029200")
        let key = try #require(WebhookSigner.key(of: Self.secret))
        #expect(request.header("webhook-signature") == WebhookSigner().signature(id: "msg_1", timestamp: 1796029200, body: request.body, key: key))
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body == #"{"type":"checkin","timestamp":"2026-11-30T09:00:00Z","data":{"id":4817325,"venue":"HALL-1","time":"2026-11-30T09:00:00Z","method":"qr","occupancy":3}}"#)
        let results = outbox.state.withLock { $0.results }
        #expect(results.map(\.verdict) == [.delivered, .retry(at: WallTime(milliseconds: Self.now.milliseconds + 600_000)), .gone, .failed])
        #expect(results.map(\.attempt.status) == [204, 429, 410, nil] && results[3].attempt.answer == "no answer within 15s")
        #expect(delivery.counters.snapshot.delivered == 1 && delivery.counters.snapshot.failed == 2 && delivery.counters.snapshot.retried == 1)
    }
}
