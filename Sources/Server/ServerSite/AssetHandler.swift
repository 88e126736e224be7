import ServerHTTPTypes

/// `B/_/NAME`: the pages' style sheet and script, cacheable for an hour.
enum AssetHandler {
    static func respond(to request: SiteRequest, name: String) -> HTTPResponse {
        let (type, body): (String, String)
        switch name {
        case "server.css": (type, body) = ("text/css; charset=utf-8", ServerAssets.css)
        case "receipt.js": (type, body) = ("text/javascript; charset=utf-8", ServerAssets.script)
        default: return request.notFound()
        }
        guard request.http.method == "GET" || request.http.method == "HEAD" else { return request.methodNotAllowed("GET, HEAD") }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "public, max-age=3600")],
                            body: Array(body.utf8))
    }
}
