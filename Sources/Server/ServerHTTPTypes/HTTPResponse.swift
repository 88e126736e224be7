import Dispatch

/// One HTTP response: status, headers in order, body bytes. The adapter hands it to
/// libmicrohttpd as it is.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 303, 429…).
    public var status: Int
    /// Header lines in order; `Set-Cookie` may repeat.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// A response of `status` with these headers and body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// Every value of header `name` (case-insensitive), in order.
    public func headers(named name: String) -> [String] {
        let lower = name.lowercased()
        return headers.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
    }
}

/// What answers requests: the site. Called on the adapter's threads, concurrently.
public protocol HTTPHandler: Sendable {
    /// Answers `request` through `reply`, exactly once: at once (before returning), or later
    /// from any thread (after a commit), while the adapter's thread serves other connections.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void)
}

extension HTTPHandler {
    /// The response to `request`, waiting for it (tests, and callers with a thread to spare).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let box = ResponseBox()
        respond(to: request) { box.put($0) }
        return box.take()
    }
}

/// One response handed from the thread that made it to the one waiting for it.
private final class ResponseBox: @unchecked Sendable {
    /// Written before `ready` is signalled, read after.
    private var response: HTTPResponse?
    private let ready = DispatchSemaphore(value: 0)

    func put(_ response: HTTPResponse) {
        self.response = response
        ready.signal()
    }

    func take() -> HTTPResponse {
        ready.wait()
        return response!
    }
}

/// Told about every answered request (metrics).
public protocol HTTPObserver: Sendable {
    /// `request` was answered with `response` after `seconds` (from its last byte in).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double)
}
