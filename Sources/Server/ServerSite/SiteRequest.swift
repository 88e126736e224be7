import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// One request as the site answers it: the HTTP request, its language and its pages, and the
/// responses every route builds from them. It holds no part of the server: each route's handler
/// brings what it needs.
struct SiteRequest: Sendable {
    /// The request as the adapter gave it.
    let http: HTTPRequest
    /// The words in the request's language.
    let words: ServerWords
    /// The pages in that language.
    let pages: Pages
    /// The site's base path (`/C`).
    let basePath: String

    /// `http` under `basePath`, its times shown in `zone`, its pages in `look`.
    init(_ http: HTTPRequest, basePath: String, zone: any LocalTimeZone, look: SiteLook = .standard) {
        self.http = http
        self.basePath = basePath
        words = ServerWords(PageLanguage.choose(http))
        pages = Pages(words: words, base: basePath, zone: zone, look: look, here: Self.switchTarget(http, basePath: basePath))
    }

    /// Where this page's language switch leads: the same address by GET (with the receipt's
    /// `again` and `seen`), or after a form's POST the venue's form. Percent-encoded again (the
    /// request's path arrives decoded), so a `?` or `#` in it stays part of the path.
    static func switchTarget(_ http: HTTPRequest, basePath: String) -> String? {
        var path = http.path
        if http.method == "POST" {
            let prefix = basePath + "/"
            guard path.hasPrefix(prefix), let venue = path.dropFirst(prefix.count).split(separator: "/").first else { return nil }
            path = prefix + venue
        } else if http.method != "GET" && http.method != "HEAD" {
            return nil
        }
        // Bytes, then one String: every request (a scan's 303 too) makes this, and appending
        // to a String a scalar at a time cost ~24,000 instructions a path (callgrind).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count + 16)
        for byte in path.utf8 {
            if Self.keptInPaths[Int(byte)] {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        let encoded = String(decoding: bytes, as: UTF8.self)
        let kept = ["again", "seen"].compactMap { name in
            http.query[name].flatMap { value in value.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "#") }) ? "\(name)=\(value)" : nil }
        }
        return kept.isEmpty || http.method == "POST" ? encoded : encoded + "?" + kept.joined(separator: "&")
    }

    /// The bytes a path keeps as they are (RFC 3986's unreserved characters, sub-delims, `:`,
    /// `@` and `/`); every other byte is percent-encoded.
    private static let keptInPaths: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~/!$'()*+,;=:@".utf8.contains(byte)
    }
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `?lang=xx` when the request chose its language that way (kept across redirects).
    var languageQuery: String {
        http.query["lang"].flatMap { $0 == "ko" || $0 == "en" ? "lang=\($0)" : nil } ?? ""
    }

    /// Whether a browser says this request comes from another site's page: the rule the
    /// console's POSTs keep too (`HTTPRequest.isCrossSite`).
    var isCrossSite: Bool { http.isCrossSite }

    /// 403 for a form posted from another site.
    func crossSite() -> HTTPResponse {
        page(403, pages.message(words.crossSiteTitle, words.crossSiteAdvice))
    }

    /// The path the site's cookies are scoped to.
    var cookiePath: String { basePath.isEmpty ? "/" : basePath }

    /// The path of venue `venue` (the safe-number form), and below it its receipts.
    func venuePath(_ venue: VenueID) -> String { "\(basePath)/\(venue.rawValue)" }

    // MARK: responses

    /// An HTML page response, with the site's security headers.
    func page(_ status: Int, _ html: HTML, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, page: html, security: SecurityHeaders.site, extra: extra)
    }

    /// 303 See Other: the token leaves the address bar, and a reload shows the receipt again.
    func redirect(to location: String, extra: [(name: String, value: String)]) -> HTTPResponse {
        let html: HTML = "<!doctype html><html lang=\"\(words.language.rawValue)\"><title>303</title><a href=\"\(location)\">\(location)</a>\n"
        return page(303, html, extra: [("Location", location)] + extra)
    }

    /// 404 with `advice` (the generic advice by default).
    func notFound(_ advice: String? = nil) -> HTTPResponse {
        page(404, pages.message(words.notFoundTitle, advice ?? words.notFoundAdvice))
    }

    /// 405 with the methods the path takes.
    func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        page(405, pages.message(words.methodNotAllowed, words.notFoundAdvice), extra: [("Allow", allowed)])
    }

    /// 413: a body over the adapter's limit.
    func tooLarge() -> HTTPResponse {
        page(413, pages.message(words.tooLarge, words.notFoundAdvice))
    }

    /// 503 while the ledger cannot answer: try again in a few seconds.
    func unavailable(now: WallTime, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        page(503, pages.unavailable(now: now), extra: extra + [("Retry-After", "5")])
    }
}
