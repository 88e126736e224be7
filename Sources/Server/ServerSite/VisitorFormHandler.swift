import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `POST B/VENUE/visitor`: the visitor's fields for a scan the server verified moments ago
/// (its ticket says which code, and when it was verified).
struct VisitorFormHandler: Sendable {
    let parts: CheckInSite.Parts

    func post(_ request: SiteRequest, venue: VenueID) async -> HTTPResponse {
        guard !request.http.bodyTooLarge else { return request.tooLarge() }
        guard !request.isCrossSite else { return request.crossSite() }
        let form = request.http.form
        guard let profile = parts.useCase.profile(of: venue), let ticket = form["ticket"] else { return Self.expired(request) }
        if form["switch"] == "1" {
            // The language switch: the same form in the other language, the ticket untouched
            // (it is checked when the form is sent).
            let html = request.pages.visitorForm(venue: venue, venueName: parts.useCase.displayName(of: venue), fields: profile.visitorFields,
                                                 ticket: ticket, message: nil)
            return request.page(200, html)
        }
        // The ticket was issued with the device's cookie: the same cookie must come back, and
        // the ticket is good once (a replay, or a post from elsewhere, records nothing).
        guard let device = request.existingDevice(parts.cookies) else {
            return request.page(400, request.pages.message(request.words.badRequestTitle, request.words.formOtherDevice))
        }
        let name = form["name"].flatMap(Visitor.acceptableName)
        let visitor = Visitor(name: name, phone: form["phone"])
        let nameOK = !profile.visitorFields.contains(.name) || name != nil
        guard nameOK, visitor.provides(profile.visitorFields) else {
            // Checked before the ticket is used: a typo costs the visitor nothing.
            let html = request.pages.visitorForm(venue: venue, venueName: parts.useCase.displayName(of: venue), fields: profile.visitorFields,
                                                 ticket: ticket, message: request.words.visitorInvalid)
            return request.page(400, html)
        }
        let pending: (code: Scan.Code, verifiedAt: WallTime)
        do throws(VisitorTickets.Refusal) {
            pending = try parts.tickets.redeem(ticket, venue: venue, device: device, now: parts.clock.now())
        } catch {
            let advice = switch error {
            case .invalid: request.words.formExpired
            case .otherDevice: request.words.formOtherDevice
            case .used: request.words.formUsed
            }
            return request.page(400, request.pages.message(request.words.badRequestTitle, advice))
        }
        let cookie = "\(VisitorCookie.name)=\(VisitorCookie.value(visitor)); Path=\(request.cookiePath); "
            + "Max-Age=\(DeviceCookies.maxAgeSeconds); HttpOnly; SameSite=Lax" + (request.http.secure ? "; Secure" : "")
        let scan = Scan(venue: venue, code: pending.code, device: .known(device), visitor: visitor)
        let outcome = await parts.useCase.checkIn(scan, verifiedAt: pending.verifiedAt)
        parts.metrics.count(outcome, method: pending.code.method)
        return CheckInAnswers(parts: parts).response(to: outcome, code: pending.code, device: .known(device), newCookie: nil, for: request,
                                                     extra: [("Set-Cookie", cookie)])
    }

    /// 400 for a form that cannot be taken: not of a venue served, without its ticket, or at a
    /// path whose venue is no id (`Route`).
    static func expired(_ request: SiteRequest) -> HTTPResponse {
        request.page(400, request.pages.message(request.words.badRequestTitle, request.words.formExpired))
    }
}
