import ServerDomain
import ServerHTTPTypes
import ServerWeb
import ServerReports
import SharedDomain

/// The check-in site: a request in, a response out. The path is parsed once into a `Route`
/// (its venue and receipt ids typed, an unreadable one answered at once); each route has one handler, which asks the use case (it decides) and picks the page and
/// status. Check-ins answer after the ledger's commit, every other page at once.
public struct CheckInSite: HTTPHandler {
    /// The parts the site works with.
    public struct Parts: Sendable {
        public let useCase: CheckInUseCase
        public let basePath: String
        public let zone: any LocalTimeZone
        /// The clock pages show the time of.
        public let clock: any WallClock
        public let limiter: SafeNumberLimiter
        public let cookies: DeviceCookies
        public let tickets: VisitorTickets
        public let formTokens: FormTokens
        public let metrics: ServerMetrics
        /// Receipt freshness, the privacy notice's words, the venues' brands.
        public let look: SiteLook
        /// Origins whose pages may read the occupancy (CORS; `occupancy-origins`).
        public let occupancyOrigins: [String]
        /// Told about every ledger failure (the server logs them, once per outage).
        public let ledgerFailed: @Sendable (LedgerError) -> Void
        /// Where kiosks' reports arrive (`B/VENUE/kiosk`); nil: none are taken (404).
        public let kioskReports: KioskReportDesk?

        /// The parts; `basePath` is empty or starts with `/` and does not end with one.
        public init(useCase: CheckInUseCase, basePath: String, zone: any LocalTimeZone, clock: any WallClock, limiter: SafeNumberLimiter,
                    cookies: DeviceCookies, tickets: VisitorTickets, formTokens: FormTokens, metrics: ServerMetrics, look: SiteLook = .standard,
                    occupancyOrigins: [String] = [], ledgerFailed: @escaping @Sendable (LedgerError) -> Void = { _ in },
                    kioskReports: KioskReportDesk? = nil) {
            self.useCase = useCase
            self.basePath = basePath
            self.zone = zone
            self.clock = clock
            self.limiter = limiter
            self.cookies = cookies
            self.tickets = tickets
            self.formTokens = formTokens
            self.metrics = metrics
            self.look = look
            self.occupancyOrigins = occupancyOrigins
            self.ledgerFailed = ledgerFailed
            self.kioskReports = kioskReports
        }
    }

    let parts: Parts

    /// A site of `parts`.
    public init(_ parts: Parts) {
        self.parts = parts
    }

    /// The pages that read no ledger (the style sheet and script, the safe-number form, 404),
    /// answered on libmicrohttpd's thread without a task (`HTTPHandler.respondAtOnce`). Only a
    /// GET or HEAD of one segment or of `_/NAME` is routed here: a scan (two segments) is not,
    /// so a check-in's path is parsed once.
    public func respondAtOnce(to http: HTTPRequest) -> HTTPResponse? {
        guard Route.mayAnswerAtOnce(method: http.method, path: http.path, basePath: parts.basePath) else { return nil }
        let request = SiteRequest(http, basePath: parts.basePath, zone: parts.zone, look: parts.look)
        switch Route(method: http.method, path: http.path, basePath: parts.basePath) {
        case .safeNumberForm(let venue): return SafeNumberHandler(parts: parts).form(for: request, venue: venue)
        case .asset(let name): return AssetHandler.respond(to: request, name: name, look: parts.look)
        case .notFound: return request.notFound()
        default: return nil
        }
    }

    public func respond(to http: HTTPRequest) async -> HTTPResponse {
        let request = SiteRequest(http, basePath: parts.basePath, zone: parts.zone, look: parts.look)
        switch Route(method: http.method, path: http.path, basePath: parts.basePath) {
        case .scan(let venue, let token): return await ScanHandler(parts: parts).respond(to: request, venue: venue, token: token)
        case .safeNumber(let venue): return await SafeNumberHandler(parts: parts).post(request, venue: venue)
        case .visitor(let venue): return await VisitorFormHandler(parts: parts).post(request, venue: venue)
        case .safeNumberForm(let venue): return SafeNumberHandler(parts: parts).form(for: request, venue: venue)
        case .receipt(let venue, let id): return await ReceiptHandler(parts: parts).respond(to: request, venue: venue, id: id)
        case .checkOut(let venue, let id): return await CheckOutHandler(parts: parts).post(request, venue: venue, id: id)
        case .kioskReport(let venue): return await KioskReportHandler(desk: parts.kioskReports).post(http, venue: venue)
        case .occupancy(let venue): return await OccupancyHandler(parts: parts).respond(to: request, venue: venue)
        case .asset(let name): return AssetHandler.respond(to: request, name: name, look: parts.look)
        case .metrics: return await MetricsHandler(metrics: parts.metrics).respond(to: request)
        case .unreadable(let page): return UnreadableRouteHandler(parts: parts).respond(to: request, page)
        case .methodNotAllowed(let allowed): return request.methodNotAllowed(allowed)
        case .notFound: return request.notFound()
        }
    }
}
