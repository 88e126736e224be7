/// The console's pages, decided once from the path (under `/admin`), and which methods each
/// takes. Who may open each is `ConsoleAccess`'s one table.
///
/// | path | GET | POST |
/// | --- | --- | --- |
/// | `/admin/login` | the sign-in form | signs in (303 to the dashboard) |
/// | `/admin/logout` | — | signs out (303 to the sign-in form) |
/// | `/admin/` | the dashboard | — |
/// | `/admin/inside` | who is inside (printable) | — |
/// | `/admin/checkin` | the staff check-in form | records one |
/// | `/admin/log` | the visitor log, searched, keyset pages | — |
/// | `/admin/export` | CSV, Excel-friendly CSV or JSON lines | — |
/// | `/admin/erase` | find and preview | erases what was previewed |
/// | `/admin/users` | the accounts | add, passwd, disable, enable, remove |
/// | `/admin/tokens` | the API's tokens | add (the token shown once), remove |
/// | `/admin/audit` | the audit log | — |
/// | `/admin/kiosks` | the kiosks, judged now | steers one (supervisors), forgets one (admins) |
/// | `/admin/webhooks` | endpoints, the outbox, recent deliveries | add, disable, enable, rotate-secret, test, redeliver, remove |
/// | `/admin/verify` | a password sign-in's second step: the code, or the enrolment `require-totp` asks for | checks it; 303 to the dashboard, or the recovery codes once |
/// | `/admin/account` | the signed-in account: how it signs in, its second factor | sets one up (the QR code, then a code confirms it) |
/// | `/admin/checkout` | staff check-out: one visit, or every visit at a venue (confirmed) | ends them |
/// | `/admin/_/NAME` | the style sheet and script | — |
public enum ConsolePage: String, CaseIterable, Hashable, Sendable {
    case login, logout, dashboard, inside, checkin, log, export, erase, users, tokens, audit, kiosks, webhooks, checkout, verify, account

    /// The path of the page.
    public var path: String {
        self == .dashboard ? ConsoleRoute.prefix + "/" : ConsoleRoute.prefix + "/" + rawValue
    }

    /// The methods the page takes (HEAD with GET).
    var methods: [String] {
        switch self {
        case .login, .checkin, .erase, .users, .tokens, .kiosks, .webhooks, .checkout, .verify, .account: ["GET", "HEAD", "POST"]
        case .logout: ["POST"]
        case .dashboard, .inside, .log, .export, .audit: ["GET", "HEAD"]
        }
    }
}

/// Where a console request goes.
enum ConsoleRoute: Equatable, Sendable {
    /// Every console path starts with this.
    static let prefix = "/admin"

    case page(ConsolePage)
    case asset(String)
    /// `/admin` without its slash: 303 to the dashboard.
    case home
    case methodNotAllowed(allow: String)
    case notFound

    init(method: String, path: String) {
        if path == Self.prefix {
            self = .home
            return
        }
        guard path.hasPrefix(Self.prefix + "/") else {
            self = .notFound
            return
        }
        let rest = path.dropFirst(Self.prefix.count + 1)
        if rest.hasPrefix("_/") {
            self = .asset(String(rest.dropFirst(2)))
            return
        }
        let page: ConsolePage? = rest.isEmpty ? .dashboard : ConsolePage(rawValue: String(rest))
        guard let page, page != .dashboard || rest.isEmpty else {
            self = .notFound
            return
        }
        self = page.methods.contains(method) ? .page(page) : .methodNotAllowed(allow: page.methods.joined(separator: ", "))
    }
}
