import Synchronization
import ServerDomain
import SharedAsync
import SharedCurl
import SharedDomain
import SharedHTTPClient
import SharedSystem

/// The delivery service of `serve` (issue 40): claims due events from the outbox in batches
/// (a lease, so a server killed mid-delivery leaves them to another or to its restart), POSTs
/// each to its endpoint with Standard Webhooks' headers through libcurl (15 s each, all of a
/// batch at once, on the blocking pool: libcurl's poll blocks), and records every attempt and
/// its verdict (`WebhookSchedule`) in one transaction. Runs until its task is cancelled,
/// finishing the batch under way.
public final class WebhookDelivery: Sendable {
    /// The longest an attempt may take.
    public static let timeoutMilliseconds: Int64 = 15_000
    /// How long a claim holds its events: the timeout twice (a batch's attempts run together).
    public static let leaseMilliseconds: Int64 = 30_000

    private let ledger: any WebhookLedger
    private let clock: any WallClock
    private let schedule: WebhookSchedule
    private let pool: BlockingPool
    private let signer: WebhookSigner
    private let batch: Int
    private let idle: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let transport: TransportBox
    /// What metrics show.
    public let counters = WebhookCounters()
    private let logger: @Sendable (String) -> Void
    /// How long ended events and attempts are kept (30 days, or the log's retention when shorter).
    private let keepMilliseconds: Int64
    /// How often they are purged.
    public static let purgeMilliseconds: Int64 = 3_600_000

    public init(ledger: any WebhookLedger, clock: any WallClock, pool: BlockingPool, schedule: WebhookSchedule = .standard,
                signer: WebhookSigner = WebhookSigner(), batch: Int = 256, idle: Duration = .milliseconds(500),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                transport: @escaping @Sendable () throws(HTTPTransportError) -> any HTTPTransport = {
                    () throws(HTTPTransportError) in try CurlTransport(bodyLimit: WebhookAttempt.answerBytes, truncatesBody: true)
                },
                keepMilliseconds: Int64 = 30 * 86_400_000, logger: @escaping @Sendable (String) -> Void = { _ in }) {
        self.keepMilliseconds = keepMilliseconds
        self.ledger = ledger
        self.clock = clock
        self.pool = pool
        self.schedule = schedule
        self.signer = signer
        self.batch = batch
        self.idle = idle
        self.sleep = sleep
        self.transport = TransportBox(make: transport)
        self.logger = logger
    }

    /// Delivers until cancelled or `stopping()`: a batch while events are due, else a pause of
    /// `idle` (by `sleep`, which throws when the service is asked to stop).
    public func run(sleep: (@Sendable (Duration) async throws -> Void)? = nil, stopping: @Sendable () -> Bool = { false }) async {
        let sleep = sleep ?? self.sleep
        var purged: Int64?
        while !Task.isCancelled && !stopping() {
            let now = clock.now().milliseconds
            if purged.map({ now - $0 >= Self.purgeMilliseconds }) ?? true {
                purged = now
                let cutoff = WallTime(milliseconds: now - keepMilliseconds)
                do {
                    _ = try await ledger.purgeWebhooks(eventsBefore: cutoff, attemptsBefore: cutoff)
                } catch {
                    logger("webhooks: the purge of old events failed, trying again within the hour: \(error.message)")
                }
            }
            let sent: Int
            do {
                sent = try await pass()
            } catch {
                logger("webhooks: \(error)")
                sent = 0
            }
            if sent == 0 {
                do { try await sleep(idle) } catch { return }
            }
        }
    }

    /// One batch: claims, sends, records; how many attempts were made.
    public func pass() async throws(LedgerError) -> Int {
        let now = clock.now()
        let events = try await ledger.claimWebhookEvents(now: now, leaseUntil: WallTime(milliseconds: now.milliseconds + Self.leaseMilliseconds),
                                                         limit: batch)
        guard !events.isEmpty else { return 0 }
        let endpoints = Dictionary(try await ledger.webhookEndpoints().map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var requests: [(event: WebhookEvent, request: OutgoingRequest)] = []
        var results: [WebhookResult] = []
        let timestamp = now.milliseconds / 1000
        for event in events {
            guard let endpoint = endpoints[event.endpoint], let key = WebhookSigner.key(of: endpoint.secret) else {
                results.append(WebhookResult(attempt: WebhookAttempt(event: event.id, endpoint: event.endpoint, time: now, status: nil, milliseconds: 0,
                                                                     answer: "the endpoint is gone or its secret unreadable"), verdict: .failed))
                continue
            }
            let body = WebhookPayload.body(event)
            let headers: [(name: String, value: String)] = [
                ("Content-Type", "application/json"), ("User-Agent", "qrcheckin-server"),
                ("webhook-id", event.messageID), ("webhook-timestamp", "\(timestamp)"),
                ("webhook-signature", signer.signature(id: event.messageID, timestamp: timestamp, body: body, key: key)),
            ]
            requests.append((event, OutgoingRequest(url: endpoint.url, headers: headers, body: body, timeoutMilliseconds: Self.timeoutMilliseconds)))
        }
        let transport = transport
        let clock = clock
        let outgoing = requests.map(\.request)
        let answers: [(result: HTTPResult, milliseconds: Int64)]
        do {
            answers = try await pool.run({ () throws(HTTPTransportError) in try transport.exchange(outgoing, clock: clock) },
                                         refused: { _ in HTTPTransportError("the server is stopping") })
        } catch {
            // The transport itself failed (libcurl could not load): the claims' leases expire.
            throw LedgerError(.failed, "webhooks: \(error.message)")
        }
        for ((event, _), answer) in zip(requests, answers) {
            let attempt = event.attempts + 1
            let (status, words, retryAfter): (Int?, String, String?) = switch answer.result {
            case .response(let response):
                (response.status, String(decoding: response.body.prefix(WebhookAttempt.answerBytes), as: UTF8.self), response.header("Retry-After"))
            case .failure(let words): (nil, words, nil)
            }
            let verdict = schedule.verdict(attempt: attempt, at: now, status: status, retryAfter: retryAfter)
            results.append(WebhookResult(attempt: WebhookAttempt(event: event.id, endpoint: event.endpoint, time: now, status: status,
                                                                 milliseconds: answer.milliseconds, answer: words), verdict: verdict))
            counters.count(verdict, latency: clock.now().milliseconds - event.time.milliseconds)
            if verdict == .gone { logger("webhooks: \(event.endpoint) answered 410 Gone: disabled") }
        }
        try await ledger.recordWebhookResults(results)
        return results.count
    }
}

/// The transport, made on the first batch and used by one pool job at a time (the service
/// awaits each batch before the next), so never by two threads at once: that is why it may be
/// `@unchecked Sendable`.
final class TransportBox: @unchecked Sendable {
    private let make: @Sendable () throws(HTTPTransportError) -> any HTTPTransport
    private var transport: (any HTTPTransport)?
    private var nextID = 0

    init(make: @escaping @Sendable () throws(HTTPTransportError) -> any HTTPTransport) {
        self.make = make
    }

    /// Sends every request at once and waits for all; each result with its duration.
    func exchange(_ requests: [OutgoingRequest], clock: any WallClock) throws(HTTPTransportError) -> [(result: HTTPResult, milliseconds: Int64)] {
        let transport: any HTTPTransport
        if let made = self.transport {
            transport = made
        } else {
            transport = try make()
            self.transport = transport
        }
        let start = clock.now().milliseconds
        var ids: [Int: Int] = [:]
        for (index, request) in requests.enumerated() {
            nextID += 1
            ids[nextID] = index
            do {
                try transport.start(request, id: nextID)
            } catch {
                ids[nextID] = nil
                ids[-index - 1] = index
            }
        }
        var answers = [(result: HTTPResult, milliseconds: Int64)?](repeating: nil, count: requests.count)
        for (id, index) in ids where id < 0 { answers[index] = (.failure("cannot start the request"), 0) }
        var open = ids.filter { $0.key > 0 }
        while !open.isEmpty {
            let (results, _) = try transport.wait(timeoutMilliseconds: 1000, readable: [])
            for (id, result) in results {
                guard let index = open.removeValue(forKey: id) else { continue }
                answers[index] = (result, clock.now().milliseconds - start)
            }
        }
        return answers.map { $0 ?? (.failure("no result"), 0) }
    }
}

/// The delivery's counts since start, for `/metrics`.
public final class WebhookCounters: Sendable {
    private let state = Mutex(State())

    struct State {
        var delivered = 0
        var failed = 0
        var retried = 0
        var latencyMilliseconds: Int64 = 0
    }

    init() {}

    func count(_ verdict: WebhookVerdict, latency: Int64) {
        state.withLock { state in
            switch verdict {
            case .delivered:
                state.delivered += 1
                state.latencyMilliseconds += max(0, latency)
            case .failed, .gone: state.failed += 1
            case .retry: state.retried += 1
            }
        }
    }

    /// Delivered, failed, attempts to retry, and the delivered events' summed latency (ms).
    public var snapshot: (delivered: Int, failed: Int, retried: Int, latencyMilliseconds: Int64) {
        state.withLock { ($0.delivered, $0.failed, $0.retried, $0.latencyMilliseconds) }
    }
}
