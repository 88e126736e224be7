import SharedDomain

/// One line of the audit log: who did what to the visitor log, when and from where. Kept apart
/// from the check-ins, append-only for every role, for its own retention (`audit-retention`):
/// once a log holds personal data, who looked at it matters as much as who wrote it.
public struct AuditEntry: Hashable, Sendable {
    /// The log's id of the entry (nil before it is appended).
    public let id: Int64?
    /// When it happened (the server's clock).
    public let time: WallTime
    /// Who: a console account (`alice`), an operator at a shell (`root`, `uid 1000`), or the
    /// server itself (`server`).
    public let actor: String
    /// What.
    public let action: AuditAction
    /// What it was done to, in words (`check-in 4817325`, `venue HALL-1`, `account bob`), if anything.
    public let subject: String?
    /// How: the filter of an export or a query, a reason (`over capacity`), if any.
    public let detail: String?
    /// How many rows it read, wrote or erased, when it is a number of rows.
    public let rows: Int?
    /// From where: `console 203.0.113.5`, `cli`, or nil.
    public let source: String?

    /// An entry with these fields.
    public init(id: Int64? = nil, time: WallTime, actor: String, action: AuditAction, subject: String? = nil, detail: String? = nil,
                rows: Int? = nil, source: String? = nil) {
        self.id = id
        self.time = time
        self.actor = actor
        self.action = action
        self.subject = subject
        self.detail = detail
        self.rows = rows
        self.source = source
    }
}

/// What an audit entry records. The raw values are the words the log, its exports and
/// `qrcheckin-server audit` show.
public enum AuditAction: String, CaseIterable, Hashable, Sendable {
    /// A console sign-in.
    case signIn = "sign-in"
    /// A console sign-in refused (wrong password, unknown or disabled account, throttled).
    case signInFailed = "sign-in-failed"
    /// A console sign-out.
    case signOut = "sign-out"
    /// An export of the visitor log (its filter and row count).
    case export
    /// Check-ins erased (by device, phone or receipt).
    case erase
    /// An overlap query (who was there at the same time as a visit).
    case overlaps
    /// The evacuation roll or another list of who is inside.
    case inside
    /// A check-in recorded by staff.
    case staffCheckIn = "staff-check-in"
    /// A check-out recorded by staff.
    case staffCheckOut = "staff-check-out"
    /// An admission past a venue's capacity.
    case overCapacity = "over-capacity"
    /// A console account added.
    case accountAdded = "account-added"
    /// A console account changed (password, role, disabled or enabled).
    case accountChanged = "account-changed"
    /// A console account removed.
    case accountRemoved = "account-removed"
    /// What an erasure would delete, shown to an operator (`erase --dry-run`, its question, the
    /// console's preview): a visitor's days and venues.
    case erasePreview = "erase-preview"
    /// A purge of what the retention settings say is due (check-ins, refusals, audit entries).
    case purge
    /// Check-ins copied into this ledger from another (`import`).
    case `import`
    /// A kiosk steered (`kiosks set`, the console's Kiosks page): which kiosk, what was asked.
    case kioskSteer = "kiosk-steer"
    /// A retired kiosk forgotten (`kiosks forget`, the console): its latest report and steer.
    case kioskForget = "kiosk-forget"
    /// A webhook endpoint added (its URL, events, venues, whether personal; never its secret).
    case webhookAdd = "webhook-add"
    /// A webhook endpoint removed, with its outbox and delivery log.
    case webhookRemove = "webhook-remove"
    /// A webhook endpoint disabled (by an operator; a 410 answer is the server's entry).
    case webhookDisable = "webhook-disable"
    /// A webhook endpoint enabled again.
    case webhookEnable = "webhook-enable"
    /// A webhook endpoint's secret replaced.
    case webhookRotateSecret = "webhook-rotate-secret"
    /// A test event queued for a webhook endpoint.
    case webhookTest = "webhook-test"
    /// Failed webhook events (or one event) queued again.
    case webhookRedeliver = "webhook-redeliver"
    /// A copy of the whole ledger made (`backup`): every visitor's data, to a file.
    case backup
    /// An API token added (`qrcheckin-server token add`, the console's tokens page): its name,
    /// scope and venues, never its secret.
    case tokenAdd = "token-add"
    /// An API token removed: calls made with it are refused from then on.
    case tokenRemove = "token-remove"
    /// A read through the API that hands no visitor out (the venues' counts), as its token.
    case apiRead = "api-read"
    /// A second factor (TOTP and new recovery codes) turned on for an account.
    case totpEnable = "totp-enable"
    /// An account's second factor turned off (`user totp disable`, the accounts page).
    case totpDisable = "totp-disable"
    /// A console sign-in through the venue's proxy (`admin-auth = proxy`), source `proxy`.
    case proxySignIn = "proxy-sign-in"
    /// An account added by its first sign-in through the proxy (proxy-managed: no password).
    case proxyAccountAdd = "proxy-account-add"
    /// A proxy-managed account's role changed at a sign-in, as its groups now say.
    case proxyRoleChange = "proxy-role-change"
    /// The proxy's sign-in headers from an address that is no trusted proxy: ignored, and
    /// audited at most once a minute per address (its rows: how many since the last entry).
    case proxySpoof = "proxy-spoof"
}

/// Which audit entries a listing covers, newest first; every bound optional.
public struct AuditQuery: Hashable, Sendable {
    /// Only those at or after this moment.
    public var from: WallTime?
    /// Only those before this moment.
    public var until: WallTime?
    /// Only those older than this id (the next page of a listing: keyset, never OFFSET).
    public var before: Int64?
    /// At most this many.
    public var limit: Int?

    /// A query with these bounds; `AuditQuery()` lists everything.
    public init(from: WallTime? = nil, until: WallTime? = nil, before: Int64? = nil, limit: Int? = nil) {
        self.from = from
        self.until = until
        self.before = before
        self.limit = limit
    }
}
