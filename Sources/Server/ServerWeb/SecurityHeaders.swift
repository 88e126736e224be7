import ServerHTTPTypes

/// The strict headers of every response of both sites: no script or style but the site's own,
/// no framing, no sniffing, no referrer, never cached. The list itself is ServerHTTPTypes'
/// (`HTTPResponse.securityHeaders`) because the HTTP adapter's own refusals (413, 503 at a
/// deadline) carry it too, and the adapter knows nothing of pages.
public enum SecurityHeaders {
    /// The visitor pages': the list as it is.
    public static let site: [(name: String, value: String)] = HTTPResponse.securityHeaders

    /// The console's: the same, with `connect-src 'self'` for the dashboard's refresh (its
    /// script fetches the page itself).
    public static let console: [(name: String, value: String)] = site.map { header in
        header.name == "Content-Security-Policy" ? (header.name, header.value + "; connect-src 'self'") : header
    }
}

extension HTTPResponse {
    /// An HTML page: `Content-Type: text/html; charset=utf-8`, then `security` (one of
    /// `SecurityHeaders`), then `extra`; the body is the page's bytes, or none (`bodyless`: a
    /// HEAD answered by the console).
    public init(status: Int, page: HTML, security: [(name: String, value: String)], extra: [(name: String, value: String)] = [],
                bodyless: Bool = false) {
        self.init(status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + security + extra, body: bodyless ? [] : page.bytes)
    }
}
