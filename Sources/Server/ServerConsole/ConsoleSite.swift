import ServerDomain
import ServerHTTPTypes
import ServerReports
import ServerWeb
import SharedDomain

/// The operator console on its own listener (`admin-listen`): a request in, a response out,
/// as `CheckInSite`. The path is parsed once into a `ConsoleRoute`; a POST from another site's
/// page is refused; the session is found; the one access table (`ConsoleAccess`) decides before
/// any handler runs; every POST must carry the session's form token; then the page's handler
/// answers.
public struct ConsoleSite: HTTPHandler {
    /// The hidden input of every form (the visitor pages' name for it).
    public static let formField = FormTokens.field
    /// The sign-in form's token cookie (double submit: no session exists yet).
    static let loginCookie = "qrcheckin_console_login"

    /// The parts the console works with.
    public struct Parts: Sendable {
        /// The visits (who is inside, a receipt's check-in).
        public let visits: any VisitLedger
        /// The visitor log (the log page, exports, the dashboard's counts).
        public let log: any VisitLog & VisitLedger
        /// Refused scans counted for the dashboard.
        public let refusals: any RefusalLog
        /// The audit log, read.
        public let audit: any AuditLog
        /// A visitor's check-ins found for erasure.
        public let erasure: any ErasureLedger
        /// The transactions operator actions and their entries go in (`AuditTrail`).
        public let transactions: any LedgerTransactions
        public let accounts: any AccountLedger
        /// Visits by when they began and ended, for the dashboard's occupancy curves, when the
        /// ledger can (every engine does; without it the curves are flat).
        public let flow: any VisitFlowLog
        /// The API's tokens, found by their secrets' hashes.
        public let tokens: any APITokens
        /// Each API token's rate budget (keyed by its name).
        public let apiRate: BoundedRateTable
        public let venues: VenueDirectory
        public let zone: any LocalTimeZone
        public let clock: any WallClock
        public let crypto: ConsoleCrypto
        public let throttle: SignInThrottle
        /// Whether the ledger answers (false during an outage).
        public let ledgerAnswers: @Sendable () -> Bool
        /// An Argon2id hash an unknown name's password is checked against, so that an unknown
        /// name takes as long as a known one (names cannot be probed by timing). A function:
        /// made on first use, not at start (it costs a hash's time and memory).
        public let decoyHash: @Sendable () async -> String
        /// The kiosks that report here (the Kiosks page); nil: the ledger keeps none.
        public let kiosks: KioskConsole?
        /// The webhooks' endpoints and outbox (issue 40), when the ledger keeps them.
        public let webhooks: (any WebhookLedger)?
        /// A new endpoint secret (`whsec_…`; random bytes, made by the composition root).
        public let newWebhookSecret: (@Sendable () -> WebhookSecret)?
        /// Second factors (the server's keys for them); nil: none can be set up or checked
        /// here, and an account that has one cannot sign in.
        public let secondFactor: ConsoleSecondFactor?
        /// Roles whose password accounts must enrol a second factor at their next sign-in (`require-totp`).
        public let requireSecondFactor: Set<ConsoleRole>
        /// How operators sign in (`admin-auth`, the proxy's headers and groups).
        public let signIn: ConsoleSignInPolicy
        /// The proxy's headers from untrusted addresses, audited at most once a minute each.
        public let spoofs: AuditPacer
        /// Sign-ins the proxy asked for and the console refused, audited at most once a minute each.
        public let proxyRefusals: AuditPacer

        /// The parts.
        /// The parts, every port of `ledger` (each handler uses only those it needs).
        public init(ledger: any Ledger,
                    venues: VenueDirectory, zone: any LocalTimeZone, clock: any WallClock, crypto: ConsoleCrypto,
                    throttle: SignInThrottle = SignInThrottle(), apiRate: RateBudget = ConsoleSite.apiRate,
                    ledgerAnswers: @escaping @Sendable () -> Bool = { true }, decoyHash: @escaping @Sendable () async -> String,
                    kiosks: KioskConsole? = nil,
                    newWebhookSecret: (@Sendable () -> WebhookSecret)? = nil,
                    secondFactor: ConsoleSecondFactor? = nil, requireSecondFactor: Set<ConsoleRole> = [],
                    signIn: ConsoleSignInPolicy = .passwordOnly, spoofs: AuditPacer = AuditPacer(), proxyRefusals: AuditPacer = AuditPacer()) {
            self.signIn = signIn
            self.spoofs = spoofs
            self.proxyRefusals = proxyRefusals
            webhooks = ledger as? any WebhookLedger
            self.newWebhookSecret = newWebhookSecret
            self.secondFactor = secondFactor
            self.requireSecondFactor = requireSecondFactor
            visits = ledger
            log = ledger
            refusals = ledger
            audit = ledger
            erasure = ledger
            transactions = ledger
            accounts = ledger
            flow = ledger
            tokens = ledger
            self.apiRate = BoundedRateTable(budget: apiRate, capacity: 1024)
            self.venues = venues
            self.zone = zone
            self.clock = clock
            self.crypto = crypto
            self.throttle = throttle
            self.ledgerAnswers = ledgerAnswers
            self.decoyHash = decoyHash
            self.kiosks = kiosks
        }

        var sessions: ConsoleSessions { ConsoleSessions(accounts: accounts, clock: clock, crypto: crypto) }
    }

    let parts: Parts

    /// An API token's rate budget: 100 calls at once, then 20 a second (a script paging the
    /// log at full speed, a door counter polling; never a loop that hammers the ledger).
    public static let apiRate = RateBudget(burst: 100, intervalMilliseconds: 50)

    /// A console of `parts`.
    public init(_ parts: Parts) {
        self.parts = parts
    }

    /// The answers that read no ledger (the console's assets, its home's redirect, 404, 405),
    /// made on libmicrohttpd's thread without a task (`HTTPHandler.respondAtOnce`).
    public func respondAtOnce(to http: HTTPRequest) -> HTTPResponse? {
        guard !APIRoute.owns(http.path) else { return nil }
        let route = ConsoleRoute(method: http.method, path: http.path)
        if case .page = route { return nil }
        let words = ConsoleWords(PageLanguage.choose(http))
        let anonymous = ConsoleRequest(http: http, words: words, current: nil, now: parts.clock.now(), zone: parts.zone)
        switch route {
        case .asset(let name): return ConsoleAssets.respond(to: anonymous, name: name)
        case .home: return anonymous.redirect(anonymous.link(ConsolePage.dashboard.path))
        case .notFound: return anonymous.message(404, words.notFound)
        case .methodNotAllowed(let allow): return anonymous.message(405, words.web.methodNotAllowed, extra: [("Allow", allow)])
        case .page: return nil
        }
    }

    public func respond(to http: HTTPRequest) async -> HTTPResponse {
        // The API (tokens, JSON, problem details) shares the listener, nothing else.
        if APIRoute.owns(http.path) { return await APIHandler(parts: parts).respond(to: http) }
        let words = ConsoleWords(PageLanguage.choose(http))
        let now = parts.clock.now()
        let anonymous = ConsoleRequest(http: http, words: words, current: nil, now: now, zone: parts.zone)
        let page: ConsolePage
        switch ConsoleRoute(method: http.method, path: http.path) {
        case .asset(let name): return ConsoleAssets.respond(to: anonymous, name: name)
        case .home: return anonymous.redirect(anonymous.link(ConsolePage.dashboard.path))
        case .notFound: return anonymous.message(404, words.notFound)
        case .methodNotAllowed(let allow): return anonymous.message(405, words.web.methodNotAllowed, extra: [("Allow", allow)])
        case .page(let found): page = found
        }
        // A form another site's page posted is refused before anything else, sign-in included:
        // the visitor pages' rule (`isCrossSite`), beside the form token and SameSite=Strict.
        if http.method == "POST", http.isCrossSite {
            return anonymous.message(403, words.web.crossSiteTitle, words.web.crossSiteAdvice)
        }
        let found: ConsoleSessions.Current?
        do throws(LedgerError) {
            found = try await parts.sessions.current(cookie: http.cookies[ConsoleSessions.cookie])
        } catch {
            return anonymous.unavailable()
        }
        // The venue's proxy (`admin-auth = proxy`) signs in, re-checks or ends the session;
        // its headers from anyone untrusted are counted (the adapter already dropped them).
        let current: ConsoleSessions.Current?
        let cookies: [(name: String, value: String)]
        switch await ProxyGate(parts: parts).check(
            ConsoleRequest(http: http, words: words, current: found, now: now, zone: parts.zone), page: page) {
        case .answer(let response): return response
        case .proceed(let session, let set):
            current = session
            cookies = set
        }
        var response = await respond(to: http, page: page, current: current, words: words, now: now)
        response.headers += cookies
        return response
    }

    /// The page's answer once the session is known: the access table, the form token, the handler.
    private func respond(to http: HTTPRequest, page: ConsolePage, current: ConsoleSessions.Current?, words: ConsoleWords,
                         now: WallTime) async -> HTTPResponse {
        let request = ConsoleRequest(http: http, words: words, current: current, now: now, zone: parts.zone)
        switch ConsoleAccess.decide(page, role: current?.account.role) {
        case .allowed: break
        case .signInFirst: return request.redirect(request.link(ConsolePage.login.path))
        case .forbidden: return request.message(403, words.forbidden)
        }
        // Every state-changing request carries the session's form token: nothing changes without it.
        if http.method == "POST", page != .login, page != .verify {
            guard let current, let token = http.form[Self.formField], parts.crypto.same(token, current.session.formToken) else {
                return request.message(403, words.formStale)
            }
        }
        switch page {
        case .login: return await SignInHandler(parts: parts).respond(to: request)
        case .logout: return await SignInHandler(parts: parts).signOut(request)
        case .dashboard: return await DashboardHandler(parts: parts).respond(to: request)
        case .inside: return await InsideHandler(parts: parts).respond(to: request)
        case .checkin: return await StaffCheckInHandler(parts: parts).respond(to: request)
        case .checkout: return await CheckoutHandler(parts: parts).respond(to: request)
        case .verify: return await SecondStepHandler(parts: parts).respond(to: request)
        case .account: return await AccountHandler(parts: parts).respond(to: request)
        case .log: return await LogHandler(parts: parts).respond(to: request)
        case .export: return await ExportHandler(parts: parts).respond(to: request)
        case .erase: return await EraseHandler(parts: parts).respond(to: request)
        case .users: return await UsersHandler(parts: parts).respond(to: request)
        case .tokens: return await TokensHandler(parts: parts).respond(to: request)
        case .audit: return await AuditHandler(parts: parts).respond(to: request)
        case .kiosks: return await KiosksHandler(parts: parts).respond(to: request)
        case .webhooks: return await WebhooksHandler(parts: parts).respond(to: request)
        }
    }

    /// A `Set-Cookie` value of the console: `HttpOnly; SameSite=Strict; Path=/admin`, `Secure`
    /// when the request came over TLS (a trusted proxy said so); `value` nil deletes it.
    static func cookie(_ name: String, _ value: String?, secure: Bool) -> (name: String, value: String) {
        ("Set-Cookie", "\(name)=\(value ?? "")\(value == nil ? "; Max-Age=0" : ""); Path=\(ConsoleRoute.prefix); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : ""))
    }
}
