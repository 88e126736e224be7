import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// One console request as its handler sees it: the HTTP request, its words, the signed-in
/// session (if any), and the responses every page builds from them.
struct ConsoleRequest: Sendable {
    let http: HTTPRequest
    let words: ConsoleWords
    /// The session and account, when signed in.
    let current: ConsoleSessions.Current?
    /// When the request is answered.
    let now: WallTime
    let zone: any LocalTimeZone

    /// Who the audit log names: the account.
    var actor: String { current?.account.name ?? "-" }
    /// Where from, for the audit log.
    var source: String { "\(current?.account.signIn == .proxy ? "proxy" : "console") \(http.client)" }
    /// The session's form token (every form's hidden input).
    var formToken: String { current?.session.formToken ?? "" }

    /// `?lang=xx` when the request chose its language that way, to keep it across links.
    var languageQuery: String {
        http.query["lang"].flatMap { $0 == "ko" || $0 == "en" ? "lang=\($0)" : nil } ?? ""
    }

    /// `path` with the language query kept.
    func link(_ path: String, _ query: String = "") -> String {
        let parts = [query, languageQuery].filter { !$0.isEmpty }
        return parts.isEmpty ? path : path + (path.contains("?") ? "&" : "?") + parts.joined(separator: "&")
    }

    /// The hidden input every form carries.
    var hiddenToken: HTML {
        "<input type=\"hidden\" name=\"\(ConsoleSite.formField)\" value=\"\(formToken)\">"
    }

    /// A time as the visitor pages and the CLI show it: `2026-12-03 14:03:07`.
    func local(_ time: WallTime) -> String {
        let local = LocalTime(time, in: zone)
        return "\(local.date) \(local.second)"
    }

    /// The strict headers of every console answer (`SecurityHeaders.console`).
    static let headers = SecurityHeaders.console

    /// An HTML page of the console.
    func page(_ status: Int, _ title: String, _ content: HTML, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, page: ConsoleLayout(request: self).render(title: title, content: content), security: Self.headers, extra: extra,
                     bodyless: http.method == "HEAD")
    }

    /// 303 See Other to `location` (console paths and escaped queries only).
    func redirect(_ location: String, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, page: "<!doctype html><title>303</title><a href=\"\(location)\">\(location)</a>\n", security: Self.headers,
                     extra: [("Location", location)] + extra)
    }

    /// A page with one message (refusals: 403, 404, 405, 503).
    func message(_ status: Int, _ title: String, _ text: String = "", extra: [(name: String, value: String)] = []) -> HTTPResponse {
        page(status, title, "<h1>\(title)</h1>" + (text.isEmpty ? "" : "<p class=\"advice\">\(text)</p>"), extra: extra)
    }

    /// 503 while the ledger cannot answer.
    func unavailable() -> HTTPResponse {
        message(503, words.web.unavailableTitle, "", extra: [("Retry-After", "5")])
    }

    /// A query argument, trimmed; nil when empty.
    func query(_ name: String) -> String? {
        guard let value = http.query[name]?.trimmingSpaces, !value.isEmpty else { return nil }
        return value
    }

    /// A form field, trimmed; nil when empty.
    func form(_ name: String) -> String? {
        guard let value = http.form[name]?.trimmingSpaces, !value.isEmpty else { return nil }
        return value
    }
}

extension String {
    /// Without spaces around it.
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
