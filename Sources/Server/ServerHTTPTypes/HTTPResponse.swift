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

/// Told about every answered request (metrics).
public protocol HTTPObserver: Sendable {
    /// `request` was answered with `response` after `seconds` (from its last byte in).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double)
}
