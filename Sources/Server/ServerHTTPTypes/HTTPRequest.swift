/// One HTTP request as the site sees it: plain values the HTTP adapter copied out of
/// libmicrohttpd (which parsed it), already percent-decoded, with every size bounded there.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, … as sent (upper case for the methods the site answers).
    public var method: String
    /// The path, percent-decoded, without the query (`/C/HALL-1/1AAAA…`).
    public var path: String
    /// Query arguments by name (the first of repeated ones); only the names the adapter knows
    /// (`HTTPRequestQuery.names`).
    public var query: [String: String]
    /// How many query arguments the request had, known or not, repeated ones each (nil: not
    /// counted): more than `query` holds means a name no page reads, or one given twice.
    public var queryArguments: Int?
    /// Header values by lower-case name: only `keptHeaders` (the adapter drops the rest, and
    /// has already used the forwarding headers to find `client` and `secure`).
    public var headers: [String: String]
    /// Cookies by name.
    public var cookies: [String: String]
    /// Form fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: [String: String]
    /// The body's bytes when it is not a form (a kiosk's JSON report, the API's JSON), as sent,
    /// at most the adapter's body limit; empty for a form (its fields are in `form`), no body,
    /// and when it was too large.
    public var body: [UInt8]
    /// Whether the body was larger than the adapter accepts (its fields are then dropped).
    public var bodyTooLarge: Bool
    /// The client's address as text (`203.0.113.5`, `2001:db8::1`): the TCP peer, or the
    /// address a trusted proxy forwarded for.
    public var client: String
    /// The unit rate limits count by: the client's IPv4 address, or its IPv6 /64 network
    /// (one subscriber usually holds a whole /64).
    public var clientKey: String
    /// Whether the client is this host (a loopback address), e.g. a metrics scraper.
    public var clientIsLocal: Bool
    /// Whether the client's connection was TLS (a trusted proxy said `X-Forwarded-Proto: https`).
    public var secure: Bool
    /// Whether the request carried the proxy's sign-in headers (`admin-auth = proxy`) from an
    /// address that is no trusted proxy: they were dropped by the adapter (no handler sees
    /// them); the console counts the attempt.
    public var untrustedIdentity: Bool

    /// A request with these parts.
    public init(method: String, path: String, query: [String: String] = [:], queryArguments: Int? = nil, headers: [String: String] = [:],
                cookies: [String: String] = [:], form: [String: String] = [:], body: [UInt8] = [], bodyTooLarge: Bool = false,
                client: String = "127.0.0.1", clientKey: String? = nil, clientIsLocal: Bool = true, secure: Bool = false, untrustedIdentity: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.queryArguments = queryArguments
        self.headers = headers
        self.cookies = cookies
        self.form = form
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.client = client
        self.clientKey = clientKey ?? client
        self.clientIsLocal = clientIsLocal
        self.secure = secure
        self.untrustedIdentity = untrustedIdentity
    }

    /// The headers the adapter copies (every other header is ignored): the language, the
    /// body's type, what tells a cross-site form post (`Sec-Fetch-Site`, `Origin`, `Host`), and
    /// a kiosk report's signature (`Qrcheckin-Report`), the API's bearer token (`Authorization`).
    public static let keptHeaders = ["accept-language", "content-type", "sec-fetch-site", "origin", "host", "qrcheckin-report", "authorization"]
}
