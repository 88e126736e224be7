import ServerDomain
import SharedDomain

/// The API's endpoints under `/api/v1` on the console's listener, decided once from the path,
/// with the scope each needs (`APIToken.allows`) and the methods it takes.
///
/// | path | method | scope |
/// | --- | --- | --- |
/// | `/api/v1/openapi.json` | GET | none: the document (docs/openapi.json, the same bytes) |
/// | `/api/v1/checkins` | GET | read: the log, keyset pages (`after`, `next`) |
/// | `/api/v1/checkins` | POST | checkin: a staff check-in (capacity holds) |
/// | `/api/v1/checkins/{id}/checkout` | POST | checkin: the visit ends |
/// | `/api/v1/venues` | GET | read: per venue, inside, capacity, today's check-ins |
/// | `/api/v1/venues/{venue}/inside` | GET | read: who is inside (the roll) |
enum APIRoute: Equatable, Sendable {
    /// Every API path starts with this.
    static let prefix = "/api/v1"

    case openAPI
    case checkIns
    case checkIn
    case checkOut(Int64)
    case venues
    case inside(VenueID)
    case methodNotAllowed(allow: String)
    case notFound

    /// The scope the endpoint needs (nil: no token).
    var scope: APIScope? {
        switch self {
        case .openAPI, .methodNotAllowed, .notFound: nil
        case .checkIns, .venues, .inside: .read
        case .checkIn, .checkOut: .checkin
        }
    }

    /// Whether `path` is the API's.
    static func owns(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/")
    }

    init(method: String, path: String) {
        let get = method == "GET" || method == "HEAD"
        guard path.hasPrefix(Self.prefix + "/") else {
            self = .notFound
            return
        }
        let parts = path.dropFirst(Self.prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where parts[0] == "openapi.json":
            self = get ? .openAPI : .methodNotAllowed(allow: "GET, HEAD")
        case 1 where parts[0] == "checkins":
            self = get ? .checkIns : method == "POST" ? .checkIn : .methodNotAllowed(allow: "GET, HEAD, POST")
        case 1 where parts[0] == "venues":
            self = get ? .venues : .methodNotAllowed(allow: "GET, HEAD")
        case 3 where parts[0] == "checkins" && parts[2] == "checkout":
            guard let receipt = ReceiptID(parts[1]) else {
                self = .notFound
                return
            }
            self = method == "POST" ? .checkOut(receipt.rawValue) : .methodNotAllowed(allow: "POST")
        case 3 where parts[0] == "venues" && parts[2] == "inside":
            guard let venue = try? VenueID(parts[1]) else {
                self = .notFound
                return
            }
            self = get ? .inside(venue) : .methodNotAllowed(allow: "GET, HEAD")
        default:
            self = .notFound
        }
    }
}
