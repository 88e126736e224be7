/// An HTTP response as a plain value, bounded by the transport (its body at most the
/// transport's `bodyLimit`, or its first `bodyLimit` bytes when it keeps only those).
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
