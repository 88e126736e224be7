import ServerHTTP
import ServerHTTPTypes
import SharedDomain
import SharedSystem
import Synchronization

/// A MicroHTTPServer on a loopback port whose handler answers every request at once and
/// remembers its path: a request that reached the site is one the adapter let through. Its
/// request deadlines run on a clock the test moves.
final class RecordingServer: Sendable {
    let server: MicroHTTPServer
    let port: UInt16
    let handler = RecordingHandler()
    let clock = SteppedClock()
    /// Signalled each time a connection is accepted and tracked.
    let accepted = TestSignal()
    /// Signalled each time a request completes (its next one is due from then).
    let completed = TestSignal()

    /// `admitted` is told of each accept policy decision, on libmicrohttpd's thread (a test may
    /// hold that thread there).
    /// libmicrohttpd's idle timeout counts real seconds, while these tests move their own clock
    /// and, run among hundreds of others on Swift's two threads here, may wait that long for
    /// their turn: `idleSeconds` keeps it out of their way (none of them is about it).
    init(limits: HTTPServerLimits = HTTPServerLimits(), idleSeconds: Int = 600, admitted: (@Sendable (Bool) -> Void)? = nil) throws {
        var limits = limits
        limits.idleSeconds = idleSeconds
        let listener = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        port = UInt16(ListenSocket.boundAddress(listener).split(separator: ":").last!)!
        let accepted = accepted, completed = completed
        server = try MicroHTTPServer(listener: listener, handler: handler, limits: limits, resolver: ClientResolver(trustedProxies: []),
                                     hooks: HTTPServerHooks(admitted: admitted, accepted: { accepted.signal() },
                                                            completed: { completed.signal() }), clock: clock, pool: ClientThreads.pool)
    }

    /// A client connected from `source`, once the server tracks its connection.
    func connect(from source: String = "127.0.0.1") async throws -> RawClient {
        let client = try RawClient(port: port, source: source)
        await accepted.wait()
        return client
    }

    /// Stops the server in a task of its own: what a test's `defer` can start.
    func stopLater() {
        Task { [server] in await server.stop() }
    }
}

/// Answers 200 `seen PATH` at once and keeps every path it was asked.
final class RecordingHandler: HTTPHandler {
    private let seen = Mutex<[String]>([])

    /// The paths asked so far.
    var paths: [String] { seen.withLock { $0 } }

    /// At once, on libmicrohttpd's thread: no task waits its turn among the other tests'.
    func respondAtOnce(to request: HTTPRequest) -> HTTPResponse? {
        seen.withLock { $0.append(request.path) }
        let body = "seen \(request.path) " + request.form.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array(body.utf8))
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        respondAtOnce(to: request)!
    }
}

/// A monotonic clock that moves only when the test moves it.
final class SteppedClock: WallClock {
    private let milliseconds = Atomic<Int64>(1_000_000)

    func now() -> WallTime { WallTime(milliseconds: milliseconds.load(ordering: .acquiring)) }

    /// Moves the clock `seconds` on.
    func advance(seconds: Double) {
        milliseconds.add(Int64(seconds * 1000), ordering: .releasing)
    }
}
