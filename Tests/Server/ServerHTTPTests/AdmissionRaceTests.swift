import Dispatch
import ServerHTTP
import Synchronization
import Testing

/// The per-client limit between libmicrohttpd's two moments of a new connection: its accept
/// policy admits it, and only later, once the connection's memory is made, does libmicrohttpd
/// say it started. With two threads accepting, another connection from the same client can be
/// decided in between (the slowloris test's 101 of 100). `HTTPServerHooks.admitted` holds one
/// thread at that moment while the other decides, so the race happens every time.
@Suite(.serialized) struct AdmissionRaceTests {
    @Test func aConnectionAdmittedButNotYetStartedCountsAgainstItsClient() async throws {
        var limits = HTTPServerLimits()
        limits.connectionsPerClient = 2
        limits.threads = 2  // each thread accepts from the listening socket: while one is held, the other accepts
        let decisions = Mutex<[Bool]>([])
        // The gate holds libmicrohttpd's thread (not a task): a semaphore there is right.
        let decided = TestSignal(), gate = DispatchSemaphore(value: 0)
        let harness = try RecordingServer(limits: limits, admitted: { admitted in
            let index = decisions.withLock { decisions in
                decisions.append(admitted)
                return decisions.count
            }
            decided.signal()
            // The second connection stays here, admitted and not yet started, until the third is decided.
            if index == 2 { gate.wait() }
        })
        defer {
            gate.signal()
            harness.stopLater()
        }
        let first = try await harness.connect()
        await decided.wait()
        let second = try RawClient(port: harness.port)
        await decided.wait()
        let third = try RawClient(port: harness.port)
        try #require(await decided.wait(within: .seconds(20)), "the other thread decided on the third connection")
        gate.signal()
        await harness.accepted.wait()  // the second started
        try #require(decisions.withLock { $0 } == [true, true, false], "the client may hold 2 connections")
        #expect(await third.readAll() == "" && !third.timedOut, "the third is closed at once")
        #expect(harness.server.openConnections == 2)
        withExtendedLifetime((first, second)) {}
    }
}
