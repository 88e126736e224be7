import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `POST B/VENUE/receipt/ID`: the receipt's "check out" button. The device cookie decides whose
/// visit (only the device that checked in can end it), the form token that the receipt showed
/// the form (CSRF), and the answer, after the commit, is the checked-out page; a second press
/// says it was already done.
struct CheckOutHandler: Sendable {
    let parts: CheckInSite.Parts
    /// The form's purpose in its token.
    static let formPurpose = "check-out"

    func post(_ request: SiteRequest, venue: VenueID, id: ReceiptID) async -> HTTPResponse {
        guard !request.http.bodyTooLarge else { return request.tooLarge() }
        guard !request.isCrossSite else { return request.crossSite() }
        guard let device = request.existingDevice(parts.cookies) else { return request.notFound(request.words.receiptMissing) }
        guard parts.formTokens.isValid(request.http.form[FormTokens.field], Self.formPurpose, venue: venue, device: device, at: parts.clock.now()) else {
            return request.page(400, request.pages.message(request.words.formExpired, request.words.notFoundAdvice))
        }
        do throws(LedgerError) {
            guard let found = try await parts.useCase.checkOut(id: id.rawValue, venue: venue, device: device) else {
                return request.notFound(request.words.receiptMissing)
            }
            return request.page(200, request.pages.checkedOut(found.visit, venueName: parts.useCase.displayName(of: venue), again: found.again,
                                                              now: parts.clock.now()))
        } catch {
            parts.metrics.countFailure(error)
            parts.ledgerFailed(error)
            return request.unavailable(now: parts.clock.now())
        }
    }
}
