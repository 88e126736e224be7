/// An outgoing HTTP request as a plain value: what a core asks its shell to send
/// (the kiosk's reporter, the server's webhook deliveries).
public struct OutgoingRequest: Equatable, Sendable {
    /// The full URL (`https://checkin.example.org/c/HALL-1/kiosk?wait=25`).
    public var url: String
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body (POSTed as is).
    public var body: [UInt8]
    /// The whole exchange's limit, milliseconds (connecting, sending, the peer's hold,
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
