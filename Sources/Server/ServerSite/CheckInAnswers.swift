import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// A check-in's outcome as the visitor sees it, whichever way the code came (scanned, typed,
/// or after the visitor form): 303 to the receipt, a refusal page, the visitor form, or 503.
struct CheckInAnswers: Sendable {
    let parts: CheckInSite.Parts

    /// The response to `outcome` of `code` by `device`, with `extra` headers. A new device's
    /// cookie (`newCookie`) goes out only with an outcome that admitted it: a refusal never
    /// gives a phone a device, nor replaces the one it has.
    func response(to outcome: CheckInOutcome, code: Scan.Code, device: Scan.Device, newCookie: String?, for request: SiteRequest,
                  extra: [(name: String, value: String)] = []) -> HTTPResponse {
        var extra = extra
        switch outcome {
        case .checkedIn, .alreadyCheckedIn, .needsVisitor:
            if let newCookie { extra.insert(("Set-Cookie", newCookie), at: 0) }
        case .refused, .unavailable, .full, .checkedOut, .noVisit:
            break
        }
        switch outcome {
        case .checkedIn(let checkIn):
            return request.redirect(to: receiptPath(checkIn, again: false, request), extra: extra)
        case .alreadyCheckedIn(let checkIn):
            // The visitor is at the door with a live code now: the receipt is fresh from now on
            // (a signed moment, so an old address cannot claim it).
            let seen = parts.formTokens.issue(ReceiptHandler.seenPurpose, venue: checkIn.venue, device: checkIn.device, at: parts.clock.now())
            return request.redirect(to: receiptPath(checkIn, again: true, seen: seen, request), extra: extra)
        case .needsVisitor(let venue, let fields, let verifiedAt):
            let ticket = parts.tickets.issue(venue: venue, code: code, verifiedAt: verifiedAt, device: device.id)
            let html = request.pages.visitorForm(venue: venue, venueName: parts.useCase.displayName(of: venue), fields: fields,
                                                 ticket: ticket, message: nil)
            return request.page(200, html, extra: extra)
        case .refused(.tooManyNewDevices, let venue):
            return request.page(429, request.pages.refusal(.tooManyNewDevices, venue: venue, venueName: venue.map(parts.useCase.displayName),
                                                           retryAfter: Int64(Self.newDeviceRetrySeconds)),
                                extra: extra + [("Retry-After", "\(Self.newDeviceRetrySeconds)")])
        case .refused(let reason, let venue):
            return request.page(Self.status(of: reason), request.pages.refusal(reason, venue: venue, venueName: venue.map(parts.useCase.displayName)),
                                extra: extra)
        case .full(let venue, let inside, let capacity):
            return request.page(Self.status(of: .full), request.pages.full(venue: venue, venueName: parts.useCase.displayName(of: venue), inside: inside,
                                                                            capacity: capacity),
                                extra: extra + [("Retry-After", "\(Self.fullRetrySeconds)")])
        case .checkedOut(let visit, let again):
            return request.page(200, request.pages.checkedOut(visit, venueName: parts.useCase.displayName(of: visit.venue), again: again,
                                                              now: parts.clock.now()), extra: extra)
        case .noVisit:
            return request.page(404, request.pages.message(request.words.noVisitTitle, request.words.noVisitAdvice), extra: extra)
        case .unavailable(let error):
            parts.ledgerFailed(error)
            return request.unavailable(now: parts.clock.now(), extra: extra)
        }
    }

    /// Seconds a phone turned away by a full venue is asked to wait: long enough for someone
    /// to leave, short enough that the kiosk's next codes are still fresh when it tries again.
    static let fullRetrySeconds = 30

    /// The status a refusal is answered with.
    static func status(of reason: RefusalReason) -> Int {
        switch reason {
        case .malformed, .unknownVersion: 400
        case .badMAC: 403
        case .unknownVenue: 404
        case .notYetValid: 409
        case .expired: 410
        case .tooManyNewDevices: 429
        case .full: 503
        }
    }

    /// Seconds a phone turned away as one new device too many is asked to wait: a network's
    /// budget gives one more every two seconds, and by then the kiosk shows a fresh code.
    static let newDeviceRetrySeconds = 15

    /// `B/VENUE/receipt/ID`, keeping the request's language; `again=1` and when it was seen
    /// again for a duplicate. The token is digits, a dot and hex: nothing to escape.
    private func receiptPath(_ checkIn: CheckIn, again: Bool, seen: String? = nil, _ request: SiteRequest) -> String {
        var query = [request.languageQuery, again ? "again=1" : "", seen.map { "seen=" + $0 } ?? ""].filter { !$0.isEmpty }.joined(separator: "&")
        if !query.isEmpty { query = "?" + query }
        return "\(request.venuePath(checkIn.venue))/receipt/\(checkIn.id)\(query)"
    }
}
