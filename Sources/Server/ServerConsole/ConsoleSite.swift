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
        /// The visitor log (and the audit log).
        public let ledger: any CheckInLedger
        public let accounts: any AccountLedger
        /// Refusals counted for the dashboard, when the ledger can.
        public let refusals: (any RefusalCounting)?
        public let visits: any OpenVisits
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
        public let decoyHash: @Sendable () -> String
        /// How operators sign in: passwords, the venue's proxy, the roles that need a second factor.
        public let signIn: ConsoleSignInPolicy
        /// Second factors (the server's keys for them); nil: none can be set up or checked here.
        public let secondFactor: ConsoleSecondFactor?
        /// The proxy's headers from addresses that are no trusted proxy, per address: one entry
        /// a minute at most.
        let spoofs = AuditPacer()
        /// The proxy's users refused (no role, a password account's name, disabled), per user
        /// and reason: one entry a minute at most.
        let proxyRefusals = AuditPacer()

        /// The parts.
        public init(ledger: any CheckInLedger, accounts: any AccountLedger, refusals: (any RefusalCounting)?, visits: any OpenVisits,
                    venues: VenueDirectory, zone: any LocalTimeZone, clock: any WallClock, crypto: ConsoleCrypto,
                    throttle: SignInThrottle = SignInThrottle(), ledgerAnswers: @escaping @Sendable () -> Bool = { true }, decoyHash: @escaping @Sendable () -> String,
                    signIn: ConsoleSignInPolicy = .passwordOnly, secondFactor: ConsoleSecondFactor? = nil) {
            self.ledger = ledger
            self.accounts = accounts
            self.refusals = refusals
            self.visits = visits
            self.venues = venues
            self.zone = zone
            self.clock = clock
            self.crypto = crypto
            self.throttle = throttle
            self.ledgerAnswers = ledgerAnswers
            self.decoyHash = decoyHash
            self.signIn = signIn
            self.secondFactor = secondFactor
        }

        var sessions: ConsoleSessions { ConsoleSessions(accounts: accounts, clock: clock, crypto: crypto) }
    }

    let parts: Parts

    /// A console of `parts`.
    public init(_ parts: Parts) {
        self.parts = parts
    }

    public func respond(to http: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        let words = ConsoleWords(PageLanguage.choose(http))
        let now = parts.clock.now()
        let anonymous = ConsoleRequest(http: http, words: words, current: nil, now: now, zone: parts.zone)
        let page: ConsolePage
        switch ConsoleRoute(method: http.method, path: http.path) {
        case .asset(let name): return reply(ConsoleAssets.respond(to: anonymous, name: name))
        case .home: return reply(anonymous.redirect(anonymous.link(ConsolePage.dashboard.path)))
        case .notFound: return reply(anonymous.message(404, words.notFound))
        case .methodNotAllowed(let allow): return reply(anonymous.message(405, words.web.methodNotAllowed, extra: [("Allow", allow)]))
        case .page(let found): page = found
        }
        // A form another site's page posted is refused before anything else, sign-in included:
        // the visitor pages' rule (`isCrossSite`), beside the form token and SameSite=Strict.
        if http.method == "POST", http.isCrossSite {
            return reply(anonymous.message(403, words.web.crossSiteTitle, words.web.crossSiteAdvice))
        }
        var current: ConsoleSessions.Current?
        do throws(LedgerError) {
            current = try parts.sessions.current(cookie: http.cookies[ConsoleSessions.cookie])
        } catch {
            return reply(anonymous.unavailable())
        }
        // The venue's proxy vouches for (or signs in) the operator on every request (`ProxyGate`);
        // the cookies it sets go on whatever the page answers.
        var reply = reply
        switch ProxyGate(parts: parts).check(ConsoleRequest(http: http, words: words, current: current, now: now, zone: parts.zone), page: page) {
        case .answer(let response): return reply(response)
        case .proceed(let vouched, let cookies):
            current = vouched
            if !cookies.isEmpty {
                let original = reply
                reply = { response in
                    var response = response
                    response.headers += cookies
                    original(response)
                }
            }
        }
        let request = ConsoleRequest(http: http, words: words, current: current, now: now, zone: parts.zone)
        switch ConsoleAccess.decide(page, role: current?.account.role) {
        case .allowed: break
        case .signInFirst: return reply(request.redirect(request.link(ConsolePage.login.path)))
        case .forbidden: return reply(request.message(403, words.forbidden))
        }
        // Every state-changing request carries the session's form token: nothing changes without it.
        if http.method == "POST", page != .login, page != .verify {
            guard let current, let token = http.form[Self.formField], parts.crypto.same(token, current.session.formToken) else {
                return reply(request.message(403, words.formStale))
            }
        }
        switch page {
        case .login: reply(SignInHandler(parts: parts).respond(to: request))
        case .logout: reply(SignInHandler(parts: parts).signOut(request))
        case .dashboard: reply(DashboardHandler(parts: parts).respond(to: request))
        case .inside: reply(InsideHandler(parts: parts).respond(to: request))
        case .checkin: StaffCheckInHandler(parts: parts).respond(to: request, reply: reply)
        case .log: reply(LogHandler(parts: parts).respond(to: request))
        case .export: reply(ExportHandler(parts: parts).respond(to: request))
        case .erase: reply(EraseHandler(parts: parts).respond(to: request))
        case .users: reply(UsersHandler(parts: parts).respond(to: request))
        case .audit: reply(AuditHandler(parts: parts).respond(to: request))
        case .verify: reply(SecondStepHandler(parts: parts).respond(to: request))
        case .account: reply(AccountHandler(parts: parts).respond(to: request))
        case .checkout: reply(CheckoutHandler(parts: parts).respond(to: request))
        }
    }

    /// A `Set-Cookie` value of the console: `HttpOnly; SameSite=Strict; Path=/admin`, `Secure`
    /// when the request came over TLS (a trusted proxy said so); `value` nil deletes it.
    static func cookie(_ name: String, _ value: String?, secure: Bool) -> (name: String, value: String) {
        ("Set-Cookie", "\(name)=\(value ?? "")\(value == nil ? "; Max-Age=0" : ""); Path=\(ConsoleRoute.prefix); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : ""))
    }
}
