import ServerHTTPTypes

/// `GET /metrics`: the counters in Prometheus text, for scrapers on this host only (a proxy's
/// forwarded client is not local).
struct MetricsHandler: Sendable {
    let metrics: ServerMetrics

    func respond(to request: SiteRequest) async -> HTTPResponse {
        guard request.http.clientIsLocal, request.http.method == "GET" || request.http.method == "HEAD" else { return request.notFound() }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: Array(await metrics.render().utf8))
    }
}
