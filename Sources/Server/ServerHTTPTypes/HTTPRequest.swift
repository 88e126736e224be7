/// One HTTP request as the site sees it: plain values the HTTP adapter copied out of
/// libmicrohttpd (which parsed it), already percent-decoded, with every size bounded there.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, … as sent (upper case for the methods the site answers).
    public var method: String
    /// The path, percent-decoded, without the query (`/C/HALL-1/1AAAA…`).
    public var path: String
    /// Query arguments by name (the first of repeated ones).
    public var query: [String: String]
    /// Header values by lower-case name: only `keptHeaders` (the adapter drops the rest, and
    /// has already used the forwarding headers to find `client` and `secure`).
    public var headers: [String: String]
    /// Cookies by name.
    public var cookies: [String: String]
    /// Form fields of an `application/x-www-form-urlencoded` or `multipart/form-data` body.
    public var form: [String: String]
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

    /// A request with these parts.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                cookies: [String: String] = [:], form: [String: String] = [:], bodyTooLarge: Bool = false,
                client: String = "127.0.0.1", clientKey: String? = nil, clientIsLocal: Bool = true, secure: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.form = form
        self.bodyTooLarge = bodyTooLarge
        self.client = client
        self.clientKey = clientKey ?? client
        self.clientIsLocal = clientIsLocal
        self.secure = secure
    }

    /// The headers the adapter copies (every other header is ignored): the language, the
    /// body's type, and what tells a cross-site form post (`Sec-Fetch-Site`, `Origin`, `Host`).
    public static let keptHeaders = ["accept-language", "content-type", "sec-fetch-site", "origin", "host"]
}
