import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// A check-in's outcome as the visitor sees it, whichever way the code came (scanned, typed,
/// or after the visitor form): 303 to the receipt, a refusal page, the visitor form, or 503.
struct CheckInAnswers: Sendable {
    let parts: CheckInSite.Parts

    /// The response to `outcome` of `code`, with `extra` headers (cookies).
    func response(to outcome: CheckInOutcome, code: Scan.Code, for request: SiteRequest,
                  extra: [(name: String, value: String)]) -> HTTPResponse {
        switch outcome {
        case .checkedIn(let checkIn):
            return request.redirect(to: receiptPath(checkIn, again: false, request), extra: extra)
        case .alreadyCheckedIn(let checkIn):
            return request.redirect(to: receiptPath(checkIn, again: true, request), extra: extra)
        case .needsVisitor(let venue, let fields, let verifiedAt):
            let ticket = parts.tickets.issue(venue: venue, code: code, verifiedAt: verifiedAt)
            let html = request.pages.visitorForm(venue: venue, venueName: parts.useCase.displayName(of: venue), fields: fields,
                                                 ticket: ticket, message: nil)
            return request.page(200, html, extra: extra)
        case .refused(let reason, let venue):
            return request.page(Self.status(of: reason), request.pages.refusal(reason, venue: venue), extra: extra)
        case .unavailable(let error):
            parts.ledgerFailed(error)
            return request.unavailable(now: parts.clock.now(), extra: extra)
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

    /// `B/VENUE/receipt/ID`, keeping the request's language; `again=1` for a duplicate.
    private func receiptPath(_ checkIn: CheckIn, again: Bool, _ request: SiteRequest) -> String {
        var query = [request.languageQuery, again ? "again=1" : ""].filter { !$0.isEmpty }.joined(separator: "&")
        if !query.isEmpty { query = "?" + query }
        return "\(request.venuePath(checkIn.venue))/receipt/\(checkIn.id)\(query)"
    }
}
