import Glibc
import ServerHTTP
import SharedSystem
import Testing

/// The listening socket is an owned descriptor: bound here or inherited, handed to the server,
/// and closed exactly once, so a stopped server leaves its port free and nothing of it open.
@Suite struct ListenSocketTests {
    /// The socket's identity (device and inode): a number closed and reused is another file.
    private func identity(_ descriptor: Int32) -> (dev_t, ino_t)? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? (status.st_dev, status.st_ino) : nil
    }

    @Test func theBoundAddressIsWrittenAsListenAddressReadsIt() async throws {
        let v4 = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        let address = ListenSocket.boundAddress(v4)
        #expect(address.hasPrefix("127.0.0.1:") && address != "127.0.0.1:0")
        #expect(try ListenAddress(address).description == address)
        let v6 = try ListenSocket.bind(ListenAddress("[::1]:0"))
        let address6 = ListenSocket.boundAddress(v6)
        #expect(address6.hasPrefix("[::1]:"))
        #expect(try ListenAddress(address6).description == address6)
    }

    @Test func aTakenAddressIsRefusedWithItsErrno() async throws {
        let taken = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        let address = try ListenAddress(ListenSocket.boundAddress(taken))
        let error = #expect(throws: ListenSocketError.self) { _ = try ListenSocket.bind(address) }
        #expect(error?.code == EADDRINUSE)
        #expect(error?.description == "cannot listen on \(address): \(String(cString: strerror(EADDRINUSE)))")
    }

    @Test func aStoppedServerLetsGoOfItsSocketOnce() async throws {
        let listener = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        let address = try ListenAddress(ListenSocket.boundAddress(listener))
        let raw = listener.rawValue
        let before = try #require(identity(raw))
        let server = try MicroHTTPServer(listener: listener, handler: RecordingHandler(), limits: HTTPServerLimits(),
                                         resolver: ClientResolver(trustedProxies: []), pool: ClientThreads.pool)
        #expect(identity(raw).map { $0 == before } == true, "libmicrohttpd holds the socket while it serves")
        await server.stop()
        #expect(identity(raw).map { $0 != before } ?? true, "closed when the server stops")
        // Nothing else holds it: the address is free again at once.
        let again = try ListenSocket.bind(address)
        #expect(ListenSocket.boundAddress(again) == address.description)
    }

    @Test func releasingADescriptorLeavesItOpenForItsNewOwner() async throws {
        let socket = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        let before = try #require(identity(socket.rawValue))
        let raw = socket.release()
        #expect(identity(raw).map { $0 == before } == true, "not closed by its release")
        #expect(close(raw) == 0)
    }
}
