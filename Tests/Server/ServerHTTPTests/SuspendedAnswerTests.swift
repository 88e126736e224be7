import Glibc
import ServerHTTP
import ServerHTTPTypes
import SharedDomain
import SharedSystem
import Synchronization
import Testing

/// The adapter's path for answers that come later (a check-in waits for its commit): the
/// connection is suspended, then resumed with the answer. `HTTPServerHooks` says when the
/// connection sleeps, so each case answers at the moment it means, never after a sleep.
@Suite(.serialized) struct SuspendedAnswerTests {
    @Test func anAnswerGivenWhileTheConnectionSleepsReachesTheClient() async throws {
        let harness = try Harness()
        defer { harness.stopLater() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        reply(HTTPResponse(status: 303, headers: [("Location", "/receipt")], body: Array("later".utf8)))
        let answer = await client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 303"))
        #expect(answer.hasSuffix("later"))
        await harness.resumed.wait()
    }

    @Test func aClientThatShutsDownItsSendingSideWhileItsAnswerWaitsIsAnsweredAllTheSame() async throws {
        let harness = try Harness()
        defer { harness.stopLater() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        // HTTP/1.0 tools shut down their sending side after the request: the read of the
        // half-closed connection must not close it before its answer (the CI failure of
        // issue 20, when the connection was resumed in its reading phase).
        shutdown(client.descriptor, Int32(SHUT_WR))
        reply(HTTPResponse(status: 303, body: Array("after half-close".utf8)))
        let answer = await client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 303"), "got \(answer)")
        #expect(answer.hasSuffix("after half-close"))
    }

    @Test func aClientThatHalfClosesRightAfterItsRequestIsAnswered() async throws {
        let harness = try Harness()
        defer { harness.stopLater() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.0\r\n\r\n")
        shutdown(client.descriptor, Int32(SHUT_WR))
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        reply(HTTPResponse(status: 200, body: Array("ok".utf8)))
        #expect(await client.readAll().hasSuffix("ok"))
    }

    @Test func anAnswerGivenAtOnceNeverSuspendsTheConnection() async throws {
        let harness = try Harness(answerAtOnce: true)
        defer { harness.stopLater() }
        let client = try RawClient(port: harness.port, sending: "GET /now HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await client.readAll().hasSuffix("at once"))
        #expect(harness.suspendedCount == 0)
    }

    @Test func aSleepingAnswerOutlivesTheRequestDeadline() async throws {
        let harness = try Harness()
        defer { harness.stopLater() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        // The request is in: a commit that takes long is no slow client.
        harness.clock.advance(seconds: 60)
        #expect(harness.server.endLateRequests() == 0)
        reply(HTTPResponse(status: 303, body: Array("committed".utf8)))
        #expect(await client.readAll().hasSuffix("committed"))
    }

    @Test func stopWaitsForASleepingAnswerAndTheClientGetsIt() async throws {
        let harness = try Harness()
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        let stopped = TestSignal()
        Task { await harness.server.stop(); stopped.signal() }
        // Stopping waits for the sleeping connection: it has not returned before the answer.
        #expect(await !stopped.wait(within: .milliseconds(200)))
        reply(HTTPResponse(status: 303, body: Array("before stop".utf8)))
        #expect(await client.readAll().hasSuffix("before stop"))
        #expect(await stopped.wait(within: .seconds(10)))
    }

    @Test func stopBegunWhileAnAnswerIsBeingMadeWaitsForItWhetherOrNotItsConnectionSleepsYet() async throws {
        // The site has the request, and stop begins at once: the connection may go to sleep
        // only now, after stop looked. Stop still waits for the answer (the client gets it, not
        // a 503) and stops libmicrohttpd with nothing asleep (else it aborts the process: the
        // SIGABRT of test_server_sigterm.py under load).
        for _ in 0..<20 {
            let harness = try Harness()
            let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let reply = await harness.handler.nextReply()
            let stopped = TestSignal()
            Task { await harness.server.stop(); stopped.signal() }
            #expect(await !stopped.wait(within: .milliseconds(50)))
            reply(HTTPResponse(status: 303, body: Array("made while stopping".utf8)))
            let answer = await client.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 303") && answer.hasSuffix("made while stopping"), "got \(answer)")
            #expect(await stopped.wait(within: .seconds(10)))
        }
    }

    @Test func stopAnswers503ForAnAnswerThatDoesNotComeByItsDeadline() async throws {
        let harness = try Harness()
        let client = try RawClient(port: harness.port, sending: "GET /never HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = await harness.handler.nextReply()
        await harness.suspended.wait()
        let clock = MonotonicClock()
        let start = clock.now()
        await harness.server.stop(drainingFor: .milliseconds(300))
        let waited = clock.now().milliseconds - start.milliseconds
        #expect(waited >= 300 && waited < 5000, "stop took \(waited) ms")
        // The client is told to come back rather than cut off (and libmicrohttpd, stopped with
        // a connection asleep, would abort the process).
        let answer = await client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 503") && answer.contains("Retry-After: 5"), "got \(answer)")
        // The commit that finally ends finds its request answered: nothing happens.
        reply(HTTPResponse(status: 303))
    }
}

/// A server on a loopback port whose handler answers when the test says.
private final class Harness: Sendable {
    let server: MicroHTTPServer
    let port: UInt16
    let handler: GatedHandler
    let suspended = TestSignal()
    let resumed = TestSignal()
    let clock = SteppedClock()
    private let suspendedCounter: Counted
    /// How many times a connection was suspended.
    var suspendedCount: Int { suspendedCounter.value.load(ordering: .acquiring) }

    init(answerAtOnce: Bool = false) throws {
        let listener = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        port = UInt16(ListenSocket.boundAddress(listener).split(separator: ":").last!)!
        handler = GatedHandler(answerAtOnce: answerAtOnce)
        let suspended = suspended, resumed = resumed
        let counted = Counted()
        suspendedCounter = counted
        server = try MicroHTTPServer(listener: listener, handler: handler, limits: HTTPServerLimits(),
                                     resolver: ClientResolver(trustedProxies: []),
                                     hooks: HTTPServerHooks(suspended: { counted.value.add(1, ordering: .releasing); suspended.signal() },
                                                            resumed: { resumed.signal() }), clock: clock, pool: ClientThreads.pool)
    }

    /// Stops the server in a task of its own: what a test's `defer` can start.
    func stopLater() {
        Task { [server] in await server.stop() }
    }
}

/// A count shared with the server's threads.
private final class Counted: Sendable {
    let value = Atomic<Int>(0)
}

/// Hands each request's reply to the test (or answers at once): the request's task waits,
/// suspended, until the test replies.
private final class GatedHandler: HTTPHandler {
    typealias Reply = @Sendable (HTTPResponse) -> Void
    private let answerAtOnce: Bool
    private struct Slots {
        var ready: [Reply] = []
        var takers: [CheckedContinuation<Reply, Never>] = []
    }
    private let slots = Mutex(Slots())

    init(answerAtOnce: Bool) {
        self.answerAtOnce = answerAtOnce
    }

    /// The answer the adapter can send without a task, when the handler answers at once.
    func respondAtOnce(to request: HTTPRequest) -> HTTPResponse? {
        answerAtOnce ? HTTPResponse(status: 200, body: Array("at once".utf8)) : nil
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let now = respondAtOnce(to: request) { return now }
        return await withCheckedContinuation { (answer: CheckedContinuation<HTTPResponse, Never>) in
            let reply: Reply = { answer.resume(returning: $0) }
            let taker: CheckedContinuation<Reply, Never>? = slots.withLock { slots in
                guard slots.takers.isEmpty else { return slots.takers.removeFirst() }
                slots.ready.append(reply)
                return nil
            }
            taker?.resume(returning: reply)
        }
    }

    /// The reply of the next request the handler is asked, once it has been asked.
    func nextReply() async -> Reply {
        await withCheckedContinuation { (taker: CheckedContinuation<Reply, Never>) in
            let ready: Reply? = slots.withLock { slots in
                guard slots.ready.isEmpty else { return slots.ready.removeFirst() }
                slots.takers.append(taker)
                return nil
            }
            if let ready { taker.resume(returning: ready) }
        }
    }
}
