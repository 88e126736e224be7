import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// One request being answered: its language, its device, and the responses the site gives.
struct RequestContext: Sendable {
    let request: HTTPRequest
    let parts: CheckInSite.Parts
    let words: ServerWords
    let pages: Pages

    init(request: HTTPRequest, parts: CheckInSite.Parts) {
        self.request = request
        self.parts = parts
        words = ServerWords(PageLanguage.choose(request))
        pages = Pages(words: words, base: parts.basePath, zone: parts.zone)
    }

    /// The strict headers every page carries: no script or style but the site's own, no
    /// framing, no sniffing, no referrer, never cached.
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]

    /// An HTML page response.
    func page(_ status: Int, _ html: String, extra: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + Self.securityHeaders + extra, body: Array(html.utf8))
    }

    /// `?lang=xx` when the request chose its language that way (kept across redirects).
    var languageQuery: String {
        request.query["lang"].flatMap { $0 == "ko" || $0 == "en" ? "lang=\($0)" : nil } ?? ""
    }

    var cookiePath: String { parts.basePath.isEmpty ? "/" : parts.basePath }

    // MARK: the device

    /// The device of the request's cookie, or a new one with the `Set-Cookie` that gives it.
    func device() -> (id: DeviceID, setCookie: String?) {
        if let cookie = request.cookies[DeviceCookies.name], let device = parts.cookies.device(for: cookie) {
            return (device, nil)
        }
        let cookie = parts.cookies.newCookie()
        // A fresh cookie always yields an id (32 hex digits hash to one).
        return (parts.cookies.device(for: cookie)!, parts.cookies.header(cookie, path: cookiePath, secure: request.secure))
    }

    /// The device of the request's cookie, if it has a good one.
    func existingDevice() -> DeviceID? {
        request.cookies[DeviceCookies.name].flatMap(parts.cookies.device(for:))
    }

    // MARK: check-ins

    /// `GET B/VENUE/TOKEN`: the scanned code.
    func scan(venueText: String, token: String, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        let (device, setCookie) = device()
        let visitor = request.cookies[VisitorCookie.name].flatMap(VisitorCookie.visitor)
        let code = Scan.Code.token(token)
        parts.useCase.checkIn(Scan(venue: venueText, code: code, device: device, visitor: visitor)) { outcome in
            parts.metrics.count(outcome, method: .qr)
            reply(answer(outcome, code: code, extra: setCookie.map { [("Set-Cookie", $0)] } ?? []))
        }
    }

    /// The response to a use-case outcome: 303 to the receipt, a refusal, a form, or 503.
    func answer(_ outcome: CheckInOutcome, code: Scan.Code, extra: [(name: String, value: String)]) -> HTTPResponse {
        switch outcome {
        case .checkedIn(let checkIn):
            return redirect(to: receiptPath(checkIn, again: false), extra: extra)
        case .alreadyCheckedIn(let checkIn):
            return redirect(to: receiptPath(checkIn, again: true), extra: extra)
        case .needsVisitor(let venue, let fields, let verifiedAt):
            let ticket = parts.tickets.issue(venue: venue, code: code, verifiedAt: verifiedAt)
            return page(200, pages.visitorForm(venue: venue, venueName: venueName(venue), fields: fields, ticket: ticket, message: nil), extra: extra)
        case .refused(let reason, let venue):
            return page(Self.status(of: reason), pages.refusal(reason, venue: venue), extra: extra)
        case .unavailable(let error):
            parts.ledgerFailed(error)
            return page(503, pages.unavailable(now: parts.useCase.clock.now()), extra: extra + [("Retry-After", "5")])
        }
    }

    /// The status a refusal is answered with.
    static func status(of reason: RefusalReason) -> Int {
        switch reason {
        case .malformed, .unknownVersion: 400
        case .badMAC: 403
        case .unknownVenue: 404
        case .notYetValid: 409
        case .expired: 410
        }
    }

    func receiptPath(_ checkIn: CheckIn, again: Bool) -> String {
        var query = [languageQuery, again ? "again=1" : ""].filter { !$0.isEmpty }.joined(separator: "&")
        if !query.isEmpty { query = "?" + query }
        return "\(parts.basePath)/\(checkIn.venue.rawValue)/receipt/\(checkIn.id)\(query)"
    }

    /// 303 See Other: the token leaves the address bar, and a reload shows the receipt again.
    /// `location` is made of the base path, a venue id, digits and `lang`/`again`: nothing to escape.
    func redirect(to location: String, extra: [(name: String, value: String)]) -> HTTPResponse {
        let html = "<!doctype html><title>303</title><a href=\"" + location + "\">" + location + "</a>\n"
        return page(303, html, extra: [("Location", location)] + extra)
    }

    func venueName(_ venue: VenueID) -> String {
        parts.useCase.venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
    }

    // MARK: receipts

    /// `GET B/VENUE/receipt/ID`: only the device that checked in sees its receipt.
    func receipt(venueText: String, idText: String) -> HTTPResponse {
        guard let venue = try? VenueID(venueText), let id = Int64(idText), id > 0, idText.first != "+",
              let device = existingDevice() else { return notFound(words.receiptMissing) }
        let found: CheckIn?
        do throws(LedgerError) {
            found = try parts.useCase.ledger.find(id: id)
        } catch {
            parts.metrics.countFailure(error)
            parts.ledgerFailed(error)
            return page(503, pages.unavailable(now: parts.useCase.clock.now()), extra: [("Retry-After", "5")])
        }
        guard let checkIn = found, checkIn.venue == venue, checkIn.device == device else { return notFound(words.receiptMissing) }
        let html = pages.receipt(checkIn, venueName: venueName(venue), again: request.query["again"] == "1",
                                 now: parts.useCase.clock.now(), path: "\(parts.basePath)/\(venue.rawValue)/receipt/\(id)")
        return page(200, html)
    }

    // MARK: the safe-number form

    /// `GET B/VENUE`: the form, for a venue this server serves.
    func safeNumberForm(venueText: String) -> HTTPResponse {
        guard let venue = try? VenueID(venueText), parts.useCase.venues.profile(for: venue) != nil else {
            return page(404, pages.refusal(.unknownVenue, venue: nil))
        }
        return page(200, pages.safeNumberForm(venue: venue, venueName: venueName(venue), message: nil))
    }

    /// `POST B/VENUE`: a typed safe number, limited per client.
    func safeNumber(venueText: String, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        guard !request.bodyTooLarge else { return reply(page(413, pages.message(words.tooLarge, words.notFoundAdvice))) }
        if let wait = parts.limiter.wait(for: request.clientKey) {
            parts.metrics.countRateLimited()
            return reply(page(429, pages.tooMany(retryAfter: wait), extra: [("Retry-After", "\(wait)")]))
        }
        guard let venue = try? VenueID(venueText), parts.useCase.venues.profile(for: venue) != nil else {
            return reply(page(404, pages.refusal(.unknownVenue, venue: nil)))
        }
        let number = (request.form["safe-number"] ?? "").filter { !$0.isWhitespace }
        guard !number.isEmpty, number.count <= 16 else {
            return reply(page(400, pages.safeNumberForm(venue: venue, venueName: venueName(venue), message: words.wrongSafeNumber)))
        }
        let (device, setCookie) = device()
        let visitor = request.cookies[VisitorCookie.name].flatMap(VisitorCookie.visitor)
        let code = Scan.Code.safeNumber(number)
        parts.useCase.checkIn(Scan(venue: venue.rawValue, code: code, device: device, visitor: visitor)) { outcome in
            parts.metrics.count(outcome, method: .safeNumber)
            let extra = setCookie.map { [("Set-Cookie", $0)] } ?? []
            if case .refused(let reason, _) = outcome, reason == .badMAC || reason == .malformed {
                // A wrong number: the form again, and one try less for this client.
                parts.limiter.failed(request.clientKey)
                return reply(page(Self.status(of: reason),
                                  pages.safeNumberForm(venue: venue, venueName: venueName(venue), message: words.wrongSafeNumber), extra: extra))
            }
            reply(answer(outcome, code: code, extra: extra))
        }
    }

    // MARK: the visitor form

    /// `POST B/VENUE/visitor`: the visitor's fields for a scan the server verified moments ago.
    func visitor(venueText: String, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        guard !request.bodyTooLarge else { return reply(page(413, pages.message(words.tooLarge, words.notFoundAdvice))) }
        let now = parts.useCase.clock.now()
        guard let venue = try? VenueID(venueText), let profile = parts.useCase.venues.profile(for: venue),
              let ticket = request.form["ticket"], let pending = parts.tickets.redeem(ticket, venue: venue, now: now) else {
            return reply(page(400, pages.message(words.badRequestTitle, words.formExpired)))
        }
        let name = request.form["name"].map { $0.trimmingCharacters() }
        let phone = request.form["phone"]
        let visitor = Visitor(name: name, phone: phone)
        let nameOK = !profile.visitorFields.contains(.name)
            || (name.map { !$0.isEmpty && $0.count <= Visitor.maximumNameLength && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } } ?? false)
        guard nameOK, visitor.provides(profile.visitorFields) else {
            return reply(page(400, pages.visitorForm(venue: venue, venueName: venueName(venue), fields: profile.visitorFields,
                                                     ticket: ticket, message: words.visitorInvalid)))
        }
        let (device, setCookie) = device()
        var extra = setCookie.map { [("Set-Cookie", $0)] } ?? []
        extra.append(("Set-Cookie", "\(VisitorCookie.name)=\(VisitorCookie.value(visitor)); Path=\(cookiePath); Max-Age=\(DeviceCookies.maxAgeSeconds); HttpOnly; SameSite=Lax" + (request.secure ? "; Secure" : "")))
        let cookies = extra
        parts.useCase.checkIn(Scan(venue: venue.rawValue, code: pending.code, device: device, visitor: visitor), verifiedAt: pending.verifiedAt) { outcome in
            parts.metrics.count(outcome, method: pending.code.method)
            reply(answer(outcome, code: pending.code, extra: cookies))
        }
    }

    // MARK: the rest

    func asset(_ name: String) -> HTTPResponse {
        let (type, body): (String, String)
        switch name {
        case "server.css": (type, body) = ("text/css; charset=utf-8", ServerAssets.css)
        case "receipt.js": (type, body) = ("text/javascript; charset=utf-8", ServerAssets.script)
        default: return notFound()
        }
        guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed("GET, HEAD") }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "public, max-age=3600")],
                            body: Array(body.utf8))
    }

    func notFound(_ advice: String? = nil) -> HTTPResponse {
        page(404, pages.message(words.notFoundTitle, advice ?? words.notFoundAdvice))
    }

    func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        page(405, pages.message(words.methodNotAllowed, words.notFoundAdvice), extra: [("Allow", allowed)])
    }
}

extension String {
    /// The text without white space around it.
    func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
