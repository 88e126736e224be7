import ServerHTTP
import ServerHTTPTypes
import SharedSystem
import Synchronization

/// A MicroHTTPServer on a loopback port whose handler answers every request at once and
/// remembers its path: a request that reached the site is one the adapter let through.
final class RecordingServer: Sendable {
    let server: MicroHTTPServer
    let port: UInt16
    let handler = RecordingHandler()

    init(limits: HTTPServerLimits = HTTPServerLimits()) throws {
        let listener = try ListenSocket.bind(ListenAddress("127.0.0.1:0"))
        port = UInt16(ListenSocket.boundAddress(listener).split(separator: ":").last!)!
        server = try MicroHTTPServer(listener: listener, handler: handler, limits: limits, resolver: ClientResolver(trustedProxies: []))
    }
}

/// Answers 200 `seen PATH` at once and keeps every path it was asked.
final class RecordingHandler: HTTPHandler {
    private let seen = Mutex<[String]>([])

    /// The paths asked so far.
    var paths: [String] { seen.withLock { $0 } }

    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        seen.withLock { $0.append(request.path) }
        let body = "seen \(request.path) " + request.form.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        reply(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array(body.utf8)))
    }
}
