import ServerHTTPTypes

/// `B/_/NAME`: the pages' style sheet (with the venues' accents), the script and the venues'
/// logos (`logo.VENUE`), cacheable for an hour.
enum AssetHandler {
    static func respond(to request: SiteRequest, name: String, look: SiteLook) -> HTTPResponse {
        let (type, body): (String, [UInt8])
        var extra: [(name: String, value: String)] = []
        switch name {
        case "server.css": (type, body) = ("text/css; charset=utf-8", Array(look.css.utf8))
        case "receipt.js": (type, body) = ("text/javascript; charset=utf-8", Array(ServerAssets.script.utf8))
        default:
            guard let logo = look.logo(asset: name) else { return request.notFound() }
            (type, body) = (logo.type, logo.bytes)
            // An SVG opened on its own is a document of this origin: it may run nothing.
            extra = [("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")]
        }
        guard request.http.method == "GET" || request.http.method == "HEAD" else { return request.methodNotAllowed("GET, HEAD") }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "public, max-age=3600")]
                                + extra, body: body)
    }
}
