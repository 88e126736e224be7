/// An outgoing HTTP request as a plain value: what the reporter's core asks its shell to send.
public struct OutgoingRequest: Equatable, Sendable {
    /// The full URL (`https://checkin.example.org/c/HALL-1/kiosk?wait=25`).
    public var url: String
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body (POSTed as is).
    public var body: [UInt8]
    /// The whole exchange's limit, milliseconds (connecting, sending, the server's hold,
    /// receiving).
    public var timeoutMilliseconds: Int64

    /// A POST.
    public init(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int64) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    public static func == (lhs: OutgoingRequest, rhs: OutgoingRequest) -> Bool {
        lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeoutMilliseconds == rhs.timeoutMilliseconds
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The value of header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What came back for a request: a response (any status), or why none did.
public enum HTTPResult: Equatable, Sendable {
    /// A complete response.
    case response(IncomingResponse)
    /// No response: the transport's words (refused, timed out, TLS, too large…).
    case failure(String)
}

/// An HTTP response as a plain value, bounded by the transport (its body at most
/// `ReportAnswer.maximumBodyBytes`).
public struct IncomingResponse: Equatable, Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in order (the final response's, after any 1xx).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: IncomingResponse, rhs: IncomingResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The value of header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Port: sends requests and reports their results, one event loop's worth at a time (libcurl's
/// multi interface in `CurlTransport`; an in-memory server in tests). Requests never block the
/// caller: `wait` is where time passes.
public protocol HTTPTransport: AnyObject {
    /// Starts sending `request`; its result comes from a later `wait` under `id`.
    func start(_ request: OutgoingRequest, id: Int) throws(HTTPTransportError)
    /// Abandons request `id` (no result will come for it).
    func cancel(_ id: Int)
    /// Waits up to `timeoutMilliseconds` (-1: forever) for results or for one of `descriptors`
    /// to be readable; returns the results that are in and the readable descriptors.
    func wait(timeoutMilliseconds: Int32, readable descriptors: [Int32]) throws(HTTPTransportError)
        -> (results: [(id: Int, result: HTTPResult)], readable: Set<Int32>)
}

/// The transport itself failed (not one request): its words.
public struct HTTPTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// An error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
