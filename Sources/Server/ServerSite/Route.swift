/// Where a request goes, decided once from its method and path: every path the site answers
/// is one case here (docs/SERVER.md, "Pages"). Paths are under the base path `B` (`/C`):
///
/// | path | GET, HEAD | POST |
/// | --- | --- | --- |
/// | `B/VENUE/TOKEN` | GET checks in (303 to the receipt); HEAD must not | — |
/// | `B/VENUE` | the safe-number form | checks a typed safe number in |
/// | `B/VENUE/visitor` | — | the visitor-log form's answer |
/// | `B/VENUE/receipt/ID` | the receipt (its device only) | checks out (its device only) |
/// | `B/VENUE/occupancy` | inside and capacity, JSON (no personal data) | — |
/// | `B/_/NAME` | the style sheet and the script | — |
/// | `/metrics` | Prometheus text, to local scrapers only | — |
enum Route: Equatable, Sendable {
    /// A scanned code.
    case scan(venue: String, token: String)
    /// The safe-number form.
    case safeNumberForm(venue: String)
    /// A typed safe number.
    case safeNumber(venue: String)
    /// The visitor-log form's answer.
    case visitor(venue: String)
    /// A receipt.
    case receipt(venue: String, id: String)
    /// The receipt's check-out button.
    case checkOut(venue: String, id: String)
    /// The venue's occupancy, as JSON.
    case occupancy(venue: String)
    /// A static asset.
    case asset(String)
    /// The metrics.
    case metrics
    /// A path the site knows, with a method it does not take: 405 with `Allow`.
    case methodNotAllowed(allow: String)
    /// Nothing here.
    case notFound

    /// The route of `method` and `path` (percent-decoded, without the query) under `basePath`.
    init(method: String, path: String, basePath: String) {
        let reads = method == "GET" || method == "HEAD"
        if path == "/metrics" {
            self = .metrics
            return
        }
        let prefix = basePath + "/"
        guard path.hasPrefix(prefix) else {
            self = .notFound
            return
        }
        let segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch segments.count {
        case 1 where !segments[0].isEmpty:
            switch method {
            case "POST": self = .safeNumber(venue: segments[0])
            case _ where reads: self = .safeNumberForm(venue: segments[0])
            default: self = .methodNotAllowed(allow: "GET, HEAD, POST")
            }
        case 2 where segments[0] == "_":
            self = .asset(segments[1])
        case 2 where segments[1] == "occupancy":
            self = reads ? .occupancy(venue: segments[0]) : .methodNotAllowed(allow: "GET, HEAD")
        case 2 where segments[1] == "visitor":
            self = method == "POST" ? .visitor(venue: segments[0]) : .methodNotAllowed(allow: "POST")
        case 2:
            // Only GET checks in: HEAD (link checkers, previews) must not.
            self = method == "GET" ? .scan(venue: segments[0], token: segments[1]) : .methodNotAllowed(allow: "GET")
        case 3 where segments[1] == "receipt":
            switch method {
            case "POST": self = .checkOut(venue: segments[0], id: segments[2])
            case _ where reads: self = .receipt(venue: segments[0], id: segments[2])
            default: self = .methodNotAllowed(allow: "GET, HEAD, POST")
            }
        default:
            self = .notFound
        }
    }
}
