import ServerHTTP
import Testing

/// The per-client limit and the fair share, through real connections from several loopback
/// addresses: each connection is opened in turn and asked one request, so whether the server
/// took it (an answer) or refused it (closed at once) is known before the next.
@Suite(.serialized) struct FairShareTests {
    /// How many of `attempts` connections from `source` the server keeps; they stay open in `kept`.
    private func open(_ attempts: Int, from source: String, on harness: RecordingServer, into kept: inout [RawClient]) async throws -> Int {
        var taken = 0
        for _ in 0..<attempts {
            let client = try RawClient(port: harness.port, source: source, sending: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            if await client.readResponse() != nil {
                taken += 1
                kept.append(client)
            }
        }
        return taken
    }

    private func limits(connections: Int, perClient: Int, floor: Int = 2) -> HTTPServerLimits {
        var limits = HTTPServerLimits()
        limits.connections = connections
        limits.connectionsPerClient = perClient
        limits.fairShareFloor = floor
        limits.threads = 1  // libmicrohttpd splits its own total between its threads
        return limits
    }

    @Test func pastHalfFullEachAddressGetsItsShareOfWhatIsLeft() async throws {
        let harness = try RecordingServer(limits: limits(connections: 20, perClient: 20))
        defer { harness.stopLater() }
        var kept: [RawClient] = []
        // First come, first served up to half the server; then a share of the free slots.
        #expect(try await open(20, from: "127.0.0.2", on: harness, into: &kept) == 10)
        #expect(try await open(20, from: "127.0.0.3", on: harness, into: &kept) == 3)   // 10 free, 2 sharing
        #expect(try await open(20, from: "127.0.0.4", on: harness, into: &kept) == 2)   // the floor
        #expect(try await open(20, from: "127.0.0.5", on: harness, into: &kept) == 2)
        #expect(harness.server.openConnections == 17)
    }

    @Test func thePerClientLimitHoldsBelowHalf() async throws {
        let harness = try RecordingServer(limits: limits(connections: 100, perClient: 3))
        defer { harness.stopLater() }
        var kept: [RawClient] = []
        #expect(try await open(5, from: "127.0.0.2", on: harness, into: &kept) == 3)
        #expect(try await open(5, from: "127.0.0.3", on: harness, into: &kept) == 3)
    }

    @Test func noPerClientLimitMeansNoShareEither() async throws {
        // Behind a proxy every connection comes from one address: past half the server too.
        let harness = try RecordingServer(limits: limits(connections: 20, perClient: 0))
        defer { harness.stopLater() }
        var kept: [RawClient] = []
        #expect(try await open(15, from: "127.0.0.2", on: harness, into: &kept) == 15)
    }
}
