import ServerDomain
import ServerHTTPTypes
import ServerReports

/// The check-in site: a request in, a response out. It routes, turns the visitor's request
/// into a `Scan`, asks the use case, and picks the page and status; the use case decides.
///
/// Paths under the base path `B` (`/C` by default):
/// `GET B/VENUE/TOKEN` checks in and answers 303 to `B/VENUE/receipt/ID`;
/// `GET B/VENUE` is the safe-number form, `POST B/VENUE` checks it in (rate limited);
/// `POST B/VENUE/visitor` answers the visitor-log form; `B/_/…` are the style sheet and script;
/// `/metrics` is for local scrapers only.
public struct CheckInSite: HTTPHandler {
    /// The parts the site works with.
    public struct Parts: Sendable {
        public let useCase: CheckInUseCase
        public let basePath: String
        public let zone: any LocalTimeZone
        public let limiter: SafeNumberRateLimiter
        public let cookies: DeviceCookies
        public let tickets: VisitorTickets
        public let metrics: ServerMetrics
        /// Told about every ledger failure (the server logs them, once per outage).
        public let ledgerFailed: @Sendable (LedgerError) -> Void

        /// The parts; `basePath` is empty or starts with `/` and does not end with one.
        public init(useCase: CheckInUseCase, basePath: String, zone: any LocalTimeZone, limiter: SafeNumberRateLimiter,
                    cookies: DeviceCookies, tickets: VisitorTickets, metrics: ServerMetrics,
                    ledgerFailed: @escaping @Sendable (LedgerError) -> Void = { _ in }) {
            self.useCase = useCase
            self.basePath = basePath
            self.zone = zone
            self.limiter = limiter
            self.cookies = cookies
            self.tickets = tickets
            self.metrics = metrics
            self.ledgerFailed = ledgerFailed
        }
    }

    let parts: Parts

    /// A site of `parts`.
    public init(_ parts: Parts) {
        self.parts = parts
    }

    public func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        let context = RequestContext(request: request, parts: parts)
        // Check-ins answer after the ledger's commit; every other page at once.
        if let later = Self.checkIn(context) {
            later(reply)
            return
        }
        reply(route(context))
    }

    /// The answer of a check-in route (the scan, the safe-number form's and the visitor form's
    /// posts), which comes after a commit; nil for every other route.
    private static func checkIn(_ context: RequestContext) -> ((@escaping @Sendable (HTTPResponse) -> Void) -> Void)? {
        let request = context.request
        let prefix = context.parts.basePath + "/"
        guard request.path.hasPrefix(prefix) else { return nil }
        let segments = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (segments.count, request.method) {
        case (1, "POST") where !segments[0].isEmpty:
            return { context.safeNumber(venueText: segments[0], reply: $0) }
        case (2, "POST") where segments[1] == "visitor":
            return { context.visitor(venueText: segments[0], reply: $0) }
        case (2, "GET") where segments[0] != "_" && segments[1] != "visitor":
            return { context.scan(venueText: segments[0], token: segments[1], reply: $0) }
        default:
            return nil
        }
    }

    private func route(_ context: RequestContext) -> HTTPResponse {
        let request = context.request
        if request.path == "/metrics" {
            guard request.clientIsLocal, request.method == "GET" || request.method == "HEAD" else { return context.notFound() }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                                body: Array(parts.metrics.render().utf8))
        }
        let prefix = parts.basePath + "/"
        guard request.path.hasPrefix(prefix) else { return context.notFound() }
        let segments = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch segments.count {
        case 2 where segments[0] == "_":
            return context.asset(segments[1])
        case 1 where !segments[0].isEmpty:
            switch request.method {
            case "GET", "HEAD": return context.safeNumberForm(venueText: segments[0])
            default: return context.methodNotAllowed("GET, HEAD, POST")
            }
        case 2 where segments[1] == "visitor":
            return context.methodNotAllowed("POST")
        case 2:
            // Only GET checks in: HEAD (link checkers, previews) must not.
            return context.methodNotAllowed("GET")
        case 3 where segments[1] == "receipt":
            guard request.method == "GET" || request.method == "HEAD" else { return context.methodNotAllowed("GET, HEAD") }
            return context.receipt(venueText: segments[0], idText: segments[2])
        default:
            return context.notFound()
        }
    }
}
