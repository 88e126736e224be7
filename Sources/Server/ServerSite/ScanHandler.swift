import ServerDomain
import ServerHTTPTypes
import SharedDomain

/// `GET B/VENUE/TOKEN`: a scanned code checks in, and the answer waits for the commit.
struct ScanHandler: Sendable {
    let parts: CheckInSite.Parts

    func respond(to request: SiteRequest, venue: VenueID?, token: String) async -> HTTPResponse {
        let (device, newCookie) = request.scanDevice(parts.cookies)
        let code = Scan.Code.token(token)
        let outcome = await parts.useCase.checkIn(Scan(venue: venue, code: code, device: device, visitor: request.visitorCookie))
        parts.metrics.count(outcome, method: .qr)
        return CheckInAnswers(parts: parts).response(to: outcome, code: code, device: device, newCookie: newCookie, for: request)
    }
}
