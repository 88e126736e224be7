import ServerDomain
import ServerHTTPTypes
import SharedDomain
import SharedText

/// `GET B/VENUE/occupancy`: how many are inside and the capacity, for a door sign or the web
/// kiosk page ("23 / 40"). Public and read-only: counts, never anyone's data. Cacheable for a
/// second (a sign polling every second costs one count a second, however many signs behind a
/// cache); readable by the pages of the configured kiosk origins only (CORS).
struct OccupancyHandler: Sendable {
    let parts: CheckInSite.Parts

    func respond(to request: SiteRequest, venue: VenueID) async -> HTTPResponse {
        let found: (inside: Int, capacity: Int?, at: WallTime)?
        do throws(LedgerError) {
            found = try await parts.useCase.occupancy(of: venue)
        } catch {
            parts.metrics.countFailure(error)
            parts.ledgerFailed(error)
            return json(503, #"{"error":"unavailable"}"#, request, extra: [("Retry-After", "5")])
        }
        guard let found else { return unknownVenue(request) }
        // A venue id is letters, digits and hyphens (VenueID): nothing in it to escape.
        let body = #"{"venue":"\#(venue.rawValue)","inside":\#(found.inside),"capacity":\#(found.capacity.map(String.init) ?? "null"),"at":"\#(UTCTime.iso8601(found.at.seconds))"}"#
        return json(200, body, request, cache: "max-age=1")
    }

    /// 404 for a venue this server does not serve, or a path whose venue is no id (`Route`).
    func unknownVenue(_ request: SiteRequest) -> HTTPResponse {
        json(404, #"{"error":"unknown venue"}"#, request)
    }

    private func json(_ status: Int, _ body: String, _ request: SiteRequest, cache: String = "no-store",
                      extra: [(name: String, value: String)] = []) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("X-Content-Type-Options", "nosniff"),
                                                        ("Cache-Control", cache), ("Vary", "Origin")]
        if let origin = request.http.headers["origin"]?.lowercased(), parts.occupancyOrigins.contains(origin) {
            headers.append(("Access-Control-Allow-Origin", origin))
        }
        return HTTPResponse(status: status, headers: headers + extra, body: Array((body + "\n").utf8))
    }
}
