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

/// A response body made while it is sent: the adapter takes it part by part as the client
/// takes them, and tells it when the connection is gone. Nothing waits on a thread: when no
/// part is ready the adapter's connection sleeps (libmicrohttpd's suspend) until the stream
/// says one is (`whenReady`).
public protocol HTTPBodyStream: AnyObject, Sendable {
    /// The body's next bytes, at most `max`, if any are ready; `.end` once all were taken. On
    /// `.notYet` the stream calls `whenReady` once, from any thread, when a part or the end is
    /// ready (perhaps before this returns: the adapter is ready for that).
    func next(max: Int, whenReady: @escaping @Sendable () -> Void) -> HTTPBodyPart
    /// The connection is closed (the whole body sent, or the client gone): stop making it.
    func close()
}

/// What a body stream has for the adapter.
public enum HTTPBodyPart: Sendable, Equatable {
    /// These bytes (never empty).
    case bytes([UInt8])
    /// Nothing ready yet: `whenReady` will be called.
    case notYet
    /// The body is complete.
    case end
}

/// What answers requests: the site. Asked from a task the adapter starts for each request, many
/// at once; the answer comes when it is ready (after a commit, for a check-in), and the
/// adapter's connection sleeps meanwhile. Blocking work (a database read) runs on the blocking
/// pool behind an `async` port, never here.
public protocol HTTPHandler: Sendable {
    /// The answer to `request`.
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// The answer to `request` if it can be made at once, on the adapter's thread, waiting for
    /// nothing (a page that reads no ledger): sent without a task or a suspension, as cheap as
    /// an answer gets. nil (the default) when `respond` must make it.
    func respondAtOnce(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    public func respondAtOnce(to request: HTTPRequest) -> HTTPResponse? { nil }
}

/// Told about every answered request (metrics).
public protocol HTTPObserver: Sendable {
    /// `request` was answered with `response` after `seconds` (from its last byte in).
    func answered(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double)
}
