import ServerHTTPTypes

/// A venue's page whose path holds no venue id or receipt number (`Route.unreadable`): answered
/// before any handler, as that page answers an id it does not know, with its status. A POST is
/// first checked as every POST of the site is (too large: 413, from another site: 403), so the
/// answer does not depend on whether the id could be read.
struct UnreadableRouteHandler: Sendable {
    let parts: CheckInSite.Parts

    func respond(to request: SiteRequest, _ page: Route.Unreadable) -> HTTPResponse {
        // A kiosk's report is no form: refused as a report of a venue whose key is not here.
        if page == .kioskReport { return KioskReportHandler.refused(.unknownVenue) }
        if request.http.method == "POST" {
            guard !request.http.bodyTooLarge else { return request.tooLarge() }
            guard !request.isCrossSite else { return request.crossSite() }
        }
        return switch page {
        case .safeNumber: SafeNumberHandler.unknownVenue(request)
        case .visitor: VisitorFormHandler.expired(request)
        case .receipt: request.notFound(request.words.receiptMissing)
        case .occupancy: OccupancyHandler(parts: parts).unknownVenue(request)
        case .kioskReport: KioskReportHandler.refused(.unknownVenue)
        }
    }
}
