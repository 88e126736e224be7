import ServerDomain
import SharedDomain

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
/// | `B/VENUE/kiosk` | — | a kiosk's signed report (JSON; the answer carries its steer) |
/// | `B/_/NAME` | the style sheet and the script | — |
/// | `/metrics` | Prometheus text, to local scrapers only | — |
enum Route: Equatable, Sendable {
    /// A scanned code. `venue` is nil when its segment is no venue id: the use case refuses
    /// such a scan as malformed and counts the refusal, as it does a bad token.
    case scan(venue: VenueID?, token: String)
    /// The safe-number form.
    case safeNumberForm(venue: VenueID)
    /// A typed safe number.
    case safeNumber(venue: VenueID)
    /// The visitor-log form's answer.
    case visitor(venue: VenueID)
    /// A receipt.
    case receipt(venue: VenueID, id: ReceiptID)
    /// The receipt's check-out button.
    case checkOut(venue: VenueID, id: ReceiptID)
    /// The venue's occupancy, as JSON.
    case occupancy(venue: VenueID)
    /// A kiosk's signed report.
    case kioskReport(venue: VenueID)
    /// A static asset.
    case asset(String)
    /// The metrics.
    case metrics
    /// A path the site knows, with a method it does not take: 405 with `Allow`.
    case methodNotAllowed(allow: String)
    /// A venue's page whose venue or receipt segment is no id: answered here, as that page
    /// answers an id it does not know (a malformed id and an unknown one look alike).
    case unreadable(Unreadable)
    /// Nothing here.
    case notFound

    /// The page whose path held an unreadable id.
    enum Unreadable: Equatable, Sendable {
        /// `B/VENUE`, GET or POST: 404, the unknown venue's refusal.
        case safeNumber
        /// `B/VENUE/visitor`: 400, the form has expired.
        case visitor
        /// `B/VENUE/receipt/ID`, GET or POST: 404, not a check-in of this device.
        case receipt
        /// `B/VENUE/occupancy`: 404 in JSON.
        case occupancy
        /// `B/VENUE/kiosk`: 401, as a venue whose key the server lacks.
        case kioskReport
    }

    /// Whether `method` and `path` may be a page `CheckInSite.respondAtOnce` answers (the
    /// safe-number form, an asset, a path outside the site): a GET or HEAD not of `/metrics`
    /// whose path under `basePath` has one segment or begins `_/`, or is not under it. Counts
    /// bytes, parses nothing: every scan (two segments) is told no at the cost of a look.
    static func mayAnswerAtOnce(method: String, path: String, basePath: String) -> Bool {
        guard method == "GET" || method == "HEAD", path != "/metrics" else { return false }
        let bytes = path.utf8, base = basePath.utf8
        guard bytes.count > base.count, bytes.starts(with: base), bytes[bytes.index(bytes.startIndex, offsetBy: base.count)] == UInt8(ascii: "/") else {
            return true  // not under the site: 404
        }
        let rest = bytes.dropFirst(base.count + 1)
        if rest.first == UInt8(ascii: "_") { return true }
        return !rest.contains(UInt8(ascii: "/"))
    }

    /// `rest` split at each `/`, empty segments kept. An ASCII path (every scan's) is split by
    /// its bytes: the same segments as splitting its characters, at a tenth of the cost (the
    /// characters' split was 4 % of a check-in's instructions); any other by its characters.
    static func segments(_ rest: Substring) -> [String] {
        let bytes = rest.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
    }

    /// The route of `method` and `path` (percent-decoded, without the query) under `basePath`:
    /// the method decides first (405), then the ids are read, once.
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
        let segments = Self.segments(path.dropFirst(prefix.count))
        // Read only where a venue's page is asked for (not for an asset), and once.
        var venue: VenueID? { try? VenueID(segments[0]) }
        switch segments.count {
        case 1 where !segments[0].isEmpty:
            switch method {
            case "POST": self = venue.map { .safeNumber(venue: $0) } ?? .unreadable(.safeNumber)
            case _ where reads: self = venue.map { .safeNumberForm(venue: $0) } ?? .unreadable(.safeNumber)
            default: self = .methodNotAllowed(allow: "GET, HEAD, POST")
            }
        case 2 where segments[0] == "_":
            self = .asset(segments[1])
        case 2 where segments[1] == "occupancy":
            guard reads else {
                self = .methodNotAllowed(allow: "GET, HEAD")
                return
            }
            self = venue.map { .occupancy(venue: $0) } ?? .unreadable(.occupancy)
        case 2 where segments[1] == "kiosk":
            guard method == "POST" else {
                self = .methodNotAllowed(allow: "POST")
                return
            }
            self = venue.map { .kioskReport(venue: $0) } ?? .unreadable(.kioskReport)
        case 2 where segments[1] == "visitor":
            guard method == "POST" else {
                self = .methodNotAllowed(allow: "POST")
                return
            }
            self = venue.map { .visitor(venue: $0) } ?? .unreadable(.visitor)
        case 2:
            // Only GET checks in: HEAD (link checkers, previews) must not.
            self = method == "GET" ? .scan(venue: venue, token: segments[1]) : .methodNotAllowed(allow: "GET")
        case 3 where segments[1] == "receipt":
            guard method == "POST" || reads else {
                self = .methodNotAllowed(allow: "GET, HEAD, POST")
                return
            }
            guard let venue, let id = ReceiptID(segments[2]) else {
                self = .unreadable(.receipt)
                return
            }
            self = method == "POST" ? .checkOut(venue: venue, id: id) : .receipt(venue: venue, id: id)
        default:
            self = .notFound
        }
    }
}
