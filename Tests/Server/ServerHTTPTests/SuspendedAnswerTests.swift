import Dispatch
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
    @Test func anAnswerGivenWhileTheConnectionSleepsReachesTheClient() throws {
        let harness = try Harness()
        defer { harness.server.stop() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        reply(HTTPResponse(status: 303, headers: [("Location", "/receipt")], body: Array("later".utf8)))
        let answer = client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 303"))
        #expect(answer.hasSuffix("later"))
        harness.resumed.take()
    }

    @Test func aClientThatShutsDownItsSendingSideWhileItsAnswerWaitsIsAnsweredAllTheSame() throws {
        let harness = try Harness()
        defer { harness.server.stop() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        // HTTP/1.0 tools shut down their sending side after the request: the read of the
        // half-closed connection must not close it before its answer (the CI failure of
        // issue 20, when the connection was resumed in its reading phase).
        shutdown(client.descriptor, Int32(SHUT_WR))
        reply(HTTPResponse(status: 303, body: Array("after half-close".utf8)))
        let answer = client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 303"), "got \(answer)")
        #expect(answer.hasSuffix("after half-close"))
    }

    @Test func aClientThatHalfClosesRightAfterItsRequestIsAnswered() throws {
        let harness = try Harness()
        defer { harness.server.stop() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.0\r\n\r\n")
        shutdown(client.descriptor, Int32(SHUT_WR))
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        reply(HTTPResponse(status: 200, body: Array("ok".utf8)))
        #expect(client.readAll().hasSuffix("ok"))
    }

    @Test func anAnswerGivenAtOnceNeverSuspendsTheConnection() throws {
        let harness = try Harness(answerAtOnce: true)
        defer { harness.server.stop() }
        let client = try RawClient(port: harness.port, sending: "GET /now HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(client.readAll().hasSuffix("at once"))
        #expect(harness.suspendedCount == 0)
    }

    @Test func aSleepingAnswerOutlivesTheRequestDeadline() throws {
        let harness = try Harness()
        defer { harness.server.stop() }
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        // The request is in: a commit that takes long is no slow client.
        harness.clock.advance(seconds: 60)
        #expect(harness.server.endLateRequests() == 0)
        reply(HTTPResponse(status: 303, body: Array("committed".utf8)))
        #expect(client.readAll().hasSuffix("committed"))
    }

    @Test func stopWaitsForASleepingAnswerAndTheClientGetsIt() throws {
        let harness = try Harness()
        let client = try RawClient(port: harness.port, sending: "GET /later HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        let stopped = Rendezvous<Void>()
        DispatchQueue.global().async { harness.server.stop(); stopped.put(()) }
        // Stopping waits for the sleeping connection: it has not returned before the answer.
        #expect(stopped.take(waitingAtMost: 200) == nil)
        reply(HTTPResponse(status: 303, body: Array("before stop".utf8)))
        #expect(client.readAll().hasSuffix("before stop"))
        #expect(stopped.take(waitingAtMost: 10_000) != nil)
    }

    @Test func stopAnswers503ForAnAnswerThatDoesNotComeByItsDeadline() throws {
        let harness = try Harness()
        let client = try RawClient(port: harness.port, sending: "GET /never HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = harness.handler.nextReply()
        harness.suspended.take()
        let clock = MonotonicClock()
        let start = clock.now()
        harness.server.stop(by: WallTime(milliseconds: start.milliseconds + 300))
        let waited = clock.now().milliseconds - start.milliseconds
        #expect(waited >= 300 && waited < 5000, "stop took \(waited) ms")
        // The client is told to come back rather than cut off (and libmicrohttpd, stopped with
        // a connection asleep, would abort the process).
        let answer = client.readAll()
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
    let suspended = Rendezvous<Void>()
    let resumed = Rendezvous<Void>()
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
                                     hooks: HTTPServerHooks(suspended: { counted.value.add(1, ordering: .releasing); suspended.put(()) },
                                                            resumed: { resumed.put(()) }), clock: clock)
    }
}

/// A count shared with the server's threads.
private final class Counted: Sendable {
    let value = Atomic<Int>(0)
}

/// Hands each request's reply to the test (or answers at once).
private final class GatedHandler: HTTPHandler, @unchecked Sendable {
    private let answerAtOnce: Bool
    private let replies = Mutex<[Rendezvous<@Sendable (HTTPResponse) -> Void>]>([])
    /// Requests asked so far, and replies the test took so far.
    private let asked = Mutex(0), taken = Mutex(0)

    init(answerAtOnce: Bool) {
        self.answerAtOnce = answerAtOnce
    }

    private func slot(_ index: Int) -> Rendezvous<@Sendable (HTTPResponse) -> Void> {
        replies.withLock { replies in
            while replies.count <= index { replies.append(Rendezvous()) }
            return replies[index]
        }
    }

    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        if answerAtOnce { return reply(HTTPResponse(status: 200, body: Array("at once".utf8))) }
        slot(asked.withLock { count in
            defer { count += 1 }
            return count
        }).put(reply)
    }

    /// The reply of the next request the handler is asked, once it has been asked.
    func nextReply() -> @Sendable (HTTPResponse) -> Void {
        slot(taken.withLock { count in
            defer { count += 1 }
            return count
        }).take()
    }
}
