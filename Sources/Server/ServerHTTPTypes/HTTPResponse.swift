/// One HTTP response: status, headers in order, body bytes. The adapter hands it to
/// libmicrohttpd as it is.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 303, 429…).
    public var status: Int
    /// Header lines in order; `Set-Cookie` may repeat.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// A body of unknown length sent as it is made (after `body`, which is then empty): an
    /// export of any size in constant memory. The adapter sends it chunked.
    public var stream: (any HTTPBodyStream)?

    /// A response of `status` with these headers and body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], stream: (any HTTPBodyStream)? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
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
            && lhs.stream.map(ObjectIdentifier.init) == rhs.stream.map(ObjectIdentifier.init)
    }
}

/// A response body made while it is sent: the adapter pulls it part by part on its own
/// thread as the client takes it, and tells it when the connection is gone.
public protocol HTTPBodyStream: AnyObject, Sendable {
    /// The body's next bytes, at most `max` (it may wait a moment for them); empty at its end.
    func read(max: Int) -> [UInt8]
    /// The connection is closed (the whole body sent, or the client gone): stop making it.
    func close()
}

/// What answers requests: the site. Called on the adapter's threads, concurrently.
public protocol HTTPHandler: Sendable {
    /// Answers `request` through `reply`, exactly once: at once (before returning), or later
    /// from any thread (after a commit), while the adapter's thread serves other connections.
    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void)
}

/// Told about every answered request (metrics).
public protocol HTTPObserver: Sendable {
    /// `request` was answered with `response` after `seconds` (from its last byte in).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double)
}
