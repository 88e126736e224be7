import ServerHTTP
import Testing

/// The deadline for a whole request (libmicrohttpd's own timeout counts idle time only, which
/// a client sending a byte every few seconds never reaches). The server's clock is the test's:
/// each case moves it and runs the sweep the server runs once a second, never sleeping.
@Suite(.serialized) struct RequestDeadlineTests {
    @Test func aHeadStillArrivingAtItsDeadlineIsCutOff() async throws {
        let harness = try RecordingServer()
        defer { harness.stopLater() }
        let client = try await harness.connect()
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
        harness.clock.advance(seconds: 9.9)
        client.send("X-Trickle: 1\r\n")
        #expect(harness.server.endLateRequests() == 0, "not late yet, however slow")
        harness.clock.advance(seconds: 0.1)
        #expect(harness.server.endLateRequests() == 1)
        #expect(await client.readAll() == "" && !client.timedOut, "closed without an answer")
        #expect(harness.handler.paths.isEmpty)
    }

    @Test func aSlowBodyIsCutOffLikeASlowHead() async throws {
        let harness = try RecordingServer()
        defer { harness.stopLater() }
        let client = try await harness.connect()
        client.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nsafe")
        harness.clock.advance(seconds: 10)
        #expect(harness.server.endLateRequests() == 1)
        #expect(await client.readAll() == "" && !client.timedOut)
    }

    @Test func aKeptAliveConnectionsNextRequestIsDueADeadlineAfterTheAnswer() async throws {
        let harness = try RecordingServer()
        defer { harness.stopLater() }
        let client = try await harness.connect()
        harness.clock.advance(seconds: 9)
        client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await client.readResponse()?.hasPrefix("HTTP/1.1 200 ") == true)
        await harness.completed.wait()
        // Answered at 9 s: the next request is due at 19 s, not 10 s.
        harness.clock.advance(seconds: 9.9)
        #expect(harness.server.endLateRequests() == 0)
        client.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await client.readResponse()?.hasSuffix("seen /second ") == true)
        await harness.completed.wait()
        harness.clock.advance(seconds: 10)
        #expect(harness.server.endLateRequests() == 1)
        #expect(await client.readAll() == "" && !client.timedOut)
        #expect(harness.handler.paths == ["/first", "/second"])
    }

    @Test func onlyLateConnectionsAreEnded() async throws {
        let harness = try RecordingServer()
        defer { harness.stopLater() }
        let early = try await harness.connect()
        harness.clock.advance(seconds: 5)
        let late = try await harness.connect()
        late.send("GET /late HTTP/1.1\r\n")
        harness.clock.advance(seconds: 5)
        #expect(harness.server.endLateRequests() == 1)
        #expect(await early.readAll() == "" && !early.timedOut)
        // The other, not late yet, goes on and is answered.
        late.send("Host: x\r\n\r\n")
        #expect(await late.readResponse()?.hasPrefix("HTTP/1.1 200 ") == true)
    }
}
