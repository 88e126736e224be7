import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// `POST B/VENUE/visitor`: the visitor's fields for a scan the server verified moments ago
/// (its ticket says which code, and when it was verified).
struct VisitorFormHandler: Sendable {
    let parts: CheckInSite.Parts

    func post(_ request: SiteRequest, venue venueText: String, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        guard !request.http.bodyTooLarge else { return reply(request.tooLarge()) }
        let form = request.http.form
        guard let venue = try? VenueID(venueText), let profile = parts.useCase.profile(of: venue),
              let ticket = form["ticket"], let pending = parts.tickets.redeem(ticket, venue: venue, now: parts.clock.now()) else {
            return reply(request.page(400, request.pages.message(request.words.badRequestTitle, request.words.formExpired)))
        }
        let name = form["name"].map { $0.trimmingCharacters() }
        let visitor = Visitor(name: name, phone: form["phone"])
        let nameOK = !profile.visitorFields.contains(.name)
            || (name.map { !$0.isEmpty && $0.count <= Visitor.maximumNameLength && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } } ?? false)
        guard nameOK, visitor.provides(profile.visitorFields) else {
            let html = request.pages.visitorForm(venue: venue, venueName: parts.useCase.displayName(of: venue), fields: profile.visitorFields,
                                                 ticket: ticket, message: request.words.visitorInvalid)
            return reply(request.page(400, html))
        }
        let (device, setCookie) = request.device(parts.cookies)
        var extra = setCookie.map { [("Set-Cookie", $0)] } ?? []
        extra.append(("Set-Cookie", "\(VisitorCookie.name)=\(VisitorCookie.value(visitor)); Path=\(request.cookiePath); "
                      + "Max-Age=\(DeviceCookies.maxAgeSeconds); HttpOnly; SameSite=Lax" + (request.http.secure ? "; Secure" : "")))
        let cookies = extra
        parts.useCase.checkIn(Scan(venue: venue.rawValue, code: pending.code, device: device, visitor: visitor), verifiedAt: pending.verifiedAt) { outcome in
            parts.metrics.count(outcome, method: pending.code.method)
            reply(CheckInAnswers(parts: parts).response(to: outcome, code: pending.code, for: request, extra: cookies))
        }
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
