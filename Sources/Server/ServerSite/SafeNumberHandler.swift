import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// `B/VENUE`: the safe-number form (GET) and a typed safe number (POST), limited per client.
struct SafeNumberHandler: Sendable {
    let parts: CheckInSite.Parts

    /// `GET B/VENUE`: the form, for a venue this server serves.
    func form(for request: SiteRequest, venue venueText: String) -> HTTPResponse {
        guard let venue = try? VenueID(venueText), parts.useCase.profile(of: venue) != nil else {
            return request.page(404, request.pages.refusal(.unknownVenue, venue: nil))
        }
        return request.page(200, request.pages.safeNumberForm(venue: venue, venueName: parts.useCase.displayName(of: venue), message: nil))
    }

    /// `POST B/VENUE`: the typed number checks in; a wrong one costs the client a try.
    func post(_ request: SiteRequest, venue venueText: String, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        guard !request.http.bodyTooLarge else { return reply(request.tooLarge()) }
        if let wait = parts.limiter.wait(for: request.http.clientKey) {
            parts.metrics.countRateLimited()
            return reply(request.page(429, request.pages.tooMany(retryAfter: wait), extra: [("Retry-After", "\(wait)")]))
        }
        guard let venue = try? VenueID(venueText), parts.useCase.profile(of: venue) != nil else {
            return reply(request.page(404, request.pages.refusal(.unknownVenue, venue: nil)))
        }
        let wrong = { @Sendable (status: Int, extra: [(name: String, value: String)]) in
            request.page(status, request.pages.safeNumberForm(venue: venue, venueName: parts.useCase.displayName(of: venue),
                                                             message: request.words.wrongSafeNumber), extra: extra)
        }
        let number = (request.http.form["safe-number"] ?? "").filter { !$0.isWhitespace }
        guard !number.isEmpty, number.count <= 16 else { return reply(wrong(400, [])) }
        let (device, setCookie) = request.device(parts.cookies)
        let code = Scan.Code.safeNumber(number)
        parts.useCase.checkIn(Scan(venue: venue.rawValue, code: code, device: device, visitor: request.visitorCookie)) { outcome in
            parts.metrics.count(outcome, method: .safeNumber)
            let extra = setCookie.map { [("Set-Cookie", $0)] } ?? []
            if case .refused(let reason, _) = outcome, reason == .badMAC || reason == .malformed {
                // A wrong number: the form again, and one try less for this client.
                parts.limiter.failed(request.http.clientKey)
                return reply(wrong(CheckInAnswers.status(of: reason), extra))
            }
            reply(CheckInAnswers(parts: parts).response(to: outcome, code: code, for: request, extra: extra))
        }
    }
}
