import ServerDomain
import ServerHTTPTypes
import ServerWeb
import SharedDomain

/// `GET B/VENUE/receipt/ID`: only the device that checked in sees its receipt.
struct ReceiptHandler: Sendable {
    let parts: CheckInSite.Parts
    /// The purpose of the signed moment a duplicate's receipt carries (`seen`): the scan that
    /// found the check-in again keeps its receipt fresh, without trusting the address.
    static let seenPurpose = "seen"

    func respond(to request: SiteRequest, venue: VenueID, id: ReceiptID) async -> HTTPResponse {
        guard let device = request.existingDevice(parts.cookies) else { return request.notFound(request.words.receiptMissing) }
        let found: CheckIn?
        do throws(LedgerError) {
            found = try await parts.useCase.receipt(id: id.rawValue, venue: venue, device: device)
        } catch {
            parts.metrics.countFailure(error)
            parts.ledgerFailed(error)
            return request.unavailable(now: parts.clock.now())
        }
        guard let checkIn = found else { return request.notFound(request.words.receiptMissing) }
        let now = parts.clock.now()
        let seen = parts.formTokens.issuedAt(request.http.query["seen"], Self.seenPurpose, venue: venue, device: device, at: now)
        let token = parts.formTokens.issue(CheckOutHandler.formPurpose, venue: venue, device: device, at: now)
        let html = request.pages.receipt(checkIn, venueName: parts.useCase.displayName(of: venue), again: request.http.query["again"] == "1",
                                         now: now, path: request.pages.here ?? "\(request.venuePath(venue))/receipt/\(id)", seen: seen,
                                         formToken: token)
        return request.page(200, html)
    }
}
