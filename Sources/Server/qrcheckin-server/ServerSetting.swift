import ServerDomain
import ServerHTTP
import ServerPostgres
import ServerSQLite
import ServerSite
import SharedCLI
import SharedDomain
import SharedSystem

/// Every qrcheckin-server setting, declared once: name, placeholder, help line, parser and
/// default (`Setting`). That makes it a config-file key, a `QRCHECKIN_SERVER_NAME` variable, a
/// `--NAME` flag of `serve` (but `name` and `exit`, see `notFlags`) and a line of its `--help`;
/// `ServerConfiguration` reads them all, the other commands the ones they share (`database`,
/// `durability`, `database-pool`, `time-zone`, the retention, the venues' settings). A help
/// line's "(default …)" is made from the default (`written`), and a test parses that text back
/// to the default. A new setting is one declaration here, in `all`, plus its documentation.
enum ServerSetting {
    static let listen = Setting.server(
        "listen", "ADDRESS", default: try! ListenAddress("127.0.0.1:8080"), written: \.description,
        help: { "HOST:PORT to listen on, numeric (default \($0)); ignored under socket activation." }) { text, source throws(CommandError) in
        do throws(ListenAddressError) { return try ListenAddress(text) } catch { throw source.error(error.description) }
    }
    /// The console listens apart from the visitors, on loopback unless an operator says otherwise.
    static let adminListen = Setting<ListenAddress?>.server(
        "admin-listen", "ADDRESS", default: try! ListenAddress("127.0.0.1:8081"), written: { $0.map(\.description) ?? "none" },
        help: { "HOST:PORT of the operator console, numeric (default \($0)); none: no console." }) { text, source throws(CommandError) in
        if text == "none" || text.isEmpty { return nil }
        do throws(ListenAddressError) { return try ListenAddress(text) } catch { throw source.error(error.description + ", or none") }
    }
    static let database = Setting<DatabaseLocation?>.server(
        "database", "URL", help: "sqlite:PATH (default sqlite:STATE/checkins.db; see FILES), or postgresql://… shared by several servers.",
        parse: DatabaseLocation.parse)
    static let durability = Setting.server(
        "durability", "full|normal", default: SQLiteDurability.full, written: \.rawValue,
        help: { "Commit until fsync (\($0), default) or until in the WAL (normal); SQLite only." }) { text, source throws(CommandError) in
        guard let value = SQLiteDurability(rawValue: text) else { throw source.error("must be full or normal, got \(Quoted(text))") }
        return value
    }
    static let databasePool = Setting.server(
        "database-pool", "N", default: PostgresLedger.defaultPoolSize, written: String.init,
        help: { "PostgreSQL connections this server keeps open at most, 1-1000 (default \($0))." }, parse: number(1...1000))
    /// Key files in the order tried; nil: qrcheckin's lookup. The flag is repeatable instead
    /// (`secretFileFlag`), so a path holding `:` can still be given.
    static let secretFile = Setting<[String]?>.server(
        "secret-file", "FILE", help: "Master secret or venue key; the setting takes FILE:FILE… (default: as qrcheckin).") { text, source throws(CommandError) in
        let files = text.split(separator: ":").map(String.init)
        guard !files.isEmpty, !text.contains("\0") else { throw source.error("must be a path, or paths joined by ':'") }
        return files
    }
    static let stateDirectory = Setting<String?>.server(
        "state-dir", "DIR",
        help: "qrcheckin's state directory, whose secret serves without secret-file (as run --state-dir; default $QRCHECKIN_STATE_DIR, else qrcheckin's).") {
        text, source throws(CommandError) in
        guard !text.isEmpty, !text.contains("\0") else { throw source.error("must be a directory's path") }
        return text
    }
    static let basePath = Setting.server(
        "base-path", "PATH", default: "/C", written: { $0.isEmpty ? "/" : $0 },
        help: { "Path of the check-in URLs before /VENUE/TOKEN (default \($0))." }, parse: ServerConfiguration.basePath)
    /// The venues served; nil: every venue a key serves.
    static let venues = Setting<[VenueID]?>.server(
        "venues", "LIST", help: "Only these venues, comma-separated (default: every venue a key serves).") { text, source throws(CommandError) in
        try text.split(separator: ",").map { item throws(CommandError) in try ServerConfiguration.venue(String(item).trimmed(), source) }
    }

    // MARK: A venue's settings (a config file may also set them per venue: NAME.VENUE)

    /// The venue's display name (not a flag: `--name` is a visitor's name in `checkin`).
    static let name = Setting<String?>.server(
        "name", "TEXT", scoped: true, help: "The venue's name on pages (per venue: name.HALL-1 = 대강당).") { text, source throws(CommandError) in
        guard !text.isEmpty, text.count <= 64 else { throw source.error("must be 1-64 characters") }
        return text
    }
    static let accent = Setting<String?>.server(
        "accent", "#RRGGBB", scoped: true,
        help: "The colour of the top edge of the venue's pages (per venue: accent.HALL-1 = #0a7d32).") { text, source throws(CommandError) in
        guard VenueBrand.isAccent(text) else { throw source.error("must be a colour #rrggbb, got \(Quoted(text))") }
        return text.lowercased()
    }
    /// Read when parsed: a missing or oversized logo fails at start, not on a visitor's phone.
    static let logo = Setting<VenueBrand.Logo?>.server(
        "logo", "FILE", scoped: true,
        help: "A PNG, SVG, JPEG or WebP of at most 256 KiB shown beside the venue's name (per venue: logo.HALL-1).") { path, source throws(CommandError) in
        guard let type = VenueBrand.Logo.type(ofPath: path) else { throw source.error("must be a .png, .svg, .jpg or .webp file, got \(Quoted(path))") }
        do throws(SystemError) {
            return VenueBrand.Logo(bytes: try RegularFile.read(path, limit: VenueBrand.Logo.maximumBytes), type: type)
        } catch {
            throw source.error(error.description + " (a logo is at most \(VenueBrand.Logo.maximumBytes / 1024) KiB)")
        }
    }
    static let period = Setting.server(
        "period", "SECONDS", default: VenueProfile.standard.period, written: { String($0.seconds) }, scoped: true,
        help: { "Rotation period of the codes, as the kiosks' (default \($0))." }, parse: TimeArgument.period)
    static let skew = Setting.server(
        "skew", "WINDOWS", default: VenueProfile.standard.skew, written: String.init, scoped: true,
        help: { "Windows accepted either side of now, 0-\(CheckInTime.maximumSkew) (default \($0))." }, parse: number(0...CheckInTime.maximumSkew))
    static let duplicateTime = Setting.server(
        "duplicate-time", "DURATION", default: VenueProfile.standard.duplicateSeconds, written: writtenDuration, scoped: true,
        help: { "A device's scans within this are one check-in: 90s, 30m, 3h (default \($0))." }, parse: ServerConfiguration.duration)
    static let visitorFields = Setting.server(
        "visitor-fields", "FIELDS", default: VenueProfile.standard.visitorFields, written: writtenFields, scoped: true,
        help: { "Visitor log fields to ask once per device: none, name, phone, name,phone (default \($0))." }, parse: ServerConfiguration.visitorFields)

    static let timeZone = Setting<String?>.server(
        "time-zone", "ZONE", help: "Zone of the pages' and outputs' local times, named on the receipt: Asia/Seoul (default: the host's).",
        parse: TimeZoneSetting.name)
    static let receiptFreshness = Setting.server(
        "receipt-freshness", "DURATION", default: SiteLook.standardFreshnessSeconds, written: writtenDuration,
        help: { "A receipt is green and moving this long, then aged: 90s, 10m, 1h (default \($0))." }) { text, source throws(CommandError) in
        let seconds = try ServerConfiguration.duration(text, source)
        guard seconds >= 1 else { throw source.error("must be at least 1s, got \(Quoted(text))") }
        return seconds
    }
    /// Who keeps the visitor log; nil: the venue's name.
    static let controller = Setting<String?>.server(
        "controller", "TEXT", help: "Who keeps the visitor log, named in the visitor form's privacy notice (default the venue's name).") {
        text, source throws(CommandError) in
        guard !text.isEmpty, text.count <= 200 else { throw source.error("must be 1-200 characters") }
        return text
    }

    // MARK: Presence (per venue too)

    static let capacity = Setting<Int?>.server(
        "capacity", "N", scoped: true, help: "Visits inside at most; then a scan gets the full page (per venue: capacity.HALL-1 = 40; default none).",
        parse: number(1...1_000_000))
    /// Set per venue only: a server-wide exit would make every venue an exit of one.
    static let exit = Setting<VenueID?>.server(
        "exit", "VENUE", scoped: true,
        help: "Per venue only: exit.HALL-1-OUT = HALL-1 makes HALL-1-OUT's codes record exits from HALL-1.") { text, source throws(CommandError) in
        guard case .file(_, _, let key) = source, key.contains(".") else { throw source.error("is set per venue only: exit.VENUE-OUT = VENUE") }
        return try ServerConfiguration.venue(text, source)
    }
    /// nil: the venue's duplicate-time.
    static let maxStay = Setting<Int64?>.server(
        "max-stay", "DURATION", scoped: true, help: "A visit with no exit ends this long after its entry: 4h (default: duplicate-time).") {
        text, source throws(CommandError) in
        let seconds = try ServerConfiguration.duration(text, source)
        guard seconds >= 60 else { throw source.error("must be at least a minute, got \(Quoted(text))") }
        return seconds
    }
    static let closeAt = Setting<Int?>.server(
        "close-at", "HH:MM", scoped: true, help: "Every open visit ends at this local time each day: 23:00 (default none).",
        parse: ServerConfiguration.clockTime)
    static let occupancyOrigins = Setting.server(
        "occupancy-origins", "LIST", default: [String](),
        help: "Origins whose pages may read BASE/VENUE/occupancy (CORS), comma-separated (default none).") { text, source throws(CommandError) in
        try text.split(separator: ",").map { item throws(CommandError) in try ServerConfiguration.origin(String(item).trimmed(), source) }
    }

    // MARK: HTTP

    /// One trust list for the forwarding headers and the proxy's sign-in headers (issue 41);
    /// a list that trusts anyone (`*`, `0.0.0.0/0`, `::/0`) is refused at start.
    static let trustedProxies = Setting.server(
        "trusted-proxies", "LIST", default: defaultTrustedProxies, written: { $0.map(\.description).joined(separator: ", ") },
        help: { "Proxies whose X-Forwarded-For/-Proto and sign-in headers count: addresses or CIDR, comma-separated; never * (default \($0))." },
        parse: trustList)
    /// The old spelling, still read, with a warning naming `trusted-proxies` (not in `all`).
    static let trustedProxyOld = Setting<[IPNetwork]?>.server(
        "trusted-proxy", "LIST", help: "Old spelling of trusted-proxies: read, with a warning.", parse: trustList)
    static let defaultTrustedProxies = [IPNetwork("127.0.0.1/32")!, IPNetwork("::1/128")!]
    @Sendable static func trustList(_ text: String, _ source: SettingSource) throws(CommandError) -> [IPNetwork] {
        try text.split(separator: ",").map { item throws(CommandError) in
            let entry = String(item).trimmed()
            guard let network = IPNetwork(entry) else {
                if entry == "*" { throw refusedEveryone(entry, source) }
                throw source.error("must be addresses or CIDR ranges (127.0.0.1, 10.0.0.0/8, ::1), comma-separated; got \(Quoted(item))")
            }
            guard !network.trustsAnyone else { throw refusedEveryone(entry, source) }
            return network
        }
    }
    private static func refusedEveryone(_ entry: String, _ source: SettingSource) -> CommandError {
        // A configuration error (78) from any source, a flag too: the trust list is the feature.
        CommandError(.config, "\(source): \(Quoted(entry)) would trust every address: anyone could then forward a false address or sign in as anyone "
            + "through the proxy's headers; name the proxies' own addresses (127.0.0.1, 10.0.0.5, 10.0.0.0/24)")
    }
    /// How operators sign in to the console (issue 41).
    static let adminAuth = Setting.server(
        "admin-auth", "WAYS", default: AdminAuth.password, written: \.rawValue,
        help: { "How operators sign in to the console: password, proxy (the proxy's sign-in headers), or both (default \($0))." }) {
        text, source throws(CommandError) in
        let ways = Set(text.split(separator: ",").map { String($0).trimmed() })
        switch ways {
        case ["password"]: return .password
        case ["proxy"]: return .proxy
        case ["password", "proxy"]: return .both
        default: throw source.error("must be password, proxy or password,proxy; got \(Quoted(text))")
        }
    }
    static let proxyUserHeader = Setting.server(
        "proxy-user-header", "NAME", default: "X-Auth-Request-User", written: { $0 },
        help: { "The header a trusted proxy names the signed-in user in (default \($0))." }, parse: headerName)
    static let proxyGroupsHeader = Setting.server(
        "proxy-groups-header", "NAME", default: "X-Auth-Request-Groups", written: { $0 },
        help: { "The header a trusted proxy lists the user's groups in, comma- or space-separated (default \($0))." }, parse: headerName)
    static let proxyRoleSteward = Setting.server(
        "proxy-role.steward", "GROUPS", default: [String](), help: "The proxy's groups whose users sign in as stewards, comma-separated (default none).",
        parse: groupList)
    static let proxyRoleSupervisor = Setting.server(
        "proxy-role.supervisor", "GROUPS", default: [String](), help: "The proxy's groups whose users sign in as supervisors (default none).",
        parse: groupList)
    static let proxyRoleAdmin = Setting.server(
        "proxy-role.admin", "GROUPS", default: [String](), help: "The proxy's groups whose users sign in as admins; the highest role matched wins (default none).",
        parse: groupList)
    @Sendable static func headerName(_ text: String, _ source: SettingSource) throws(CommandError) -> String {
        guard !text.isEmpty, text.count <= 64, text.utf8.allSatisfy({ byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }) else { throw source.error("must be a header name (letters, digits, -), got \(Quoted(text))") }
        return text
    }
    @Sendable static func groupList(_ text: String, _ source: SettingSource) throws(CommandError) -> [String] {
        let groups = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !groups.isEmpty else { throw source.error("must name groups, comma-separated") }
        return groups
    }
    static let requireTOTP = Setting.server(
        "require-totp", "ROLES", default: [ConsoleRole](),
        help: "Console roles whose password accounts must set up a second factor (TOTP) at their next sign-in: steward, supervisor, admin, comma-separated.") {
        text, source throws(CommandError) in
        try text.split(separator: ",").map { item throws(CommandError) in
            guard let role = ConsoleRole(rawValue: String(item).trimmed()) else {
                throw source.error("must be roles (steward, supervisor, admin), comma-separated; got \(Quoted(item))")
            }
            return role
        }
    }
    static let maxConnections = Setting.server(
        "max-connections", "N", default: HTTPServerLimits().connections, written: String.init,
        help: { "Connections at once, 1-100000 (default \($0))." }, parse: number(1...100_000))
    static let maxConnectionsPerClient = Setting.server(
        "max-connections-per-client", "N", default: HTTPServerLimits().connectionsPerClient, written: String.init,
        help: { "Connections at once from one address (IPv6: one /64), 0 (no limit)-100000 (default \($0))." }, parse: number(0...100_000))
    static let requestTimeout = Setting.server(
        "request-timeout", "SECONDS", default: HTTPServerLimits().requestSeconds, written: String.init,
        help: { "A request's head and body must arrive within this, 1-600 (default \($0)); then its connection is closed." },
        parse: number(1...600))
    /// nil: one per core, at least 2 (worked out on the host that serves).
    static let threads = Setting<Int?>.server(
        "threads", "N", help: "Threads serving connections, 1-64 (default: one per core, at least 2).", parse: number(1...64))
    /// The API's budget per token (issue 40): this many calls a second, after a burst of five seconds' worth.
    static let apiRate = Setting.server(
        "api-rate", "N", default: 20, written: String.init,
        help: { "API calls a second each token may make, after a burst of five seconds' worth, 1-10000 (default \($0)); then 429 with Retry-After." },
        parse: number(1...10_000))

    // MARK: Retention (serve, purge and status)

    static let retention = Setting.server(
        "retention", "PERIOD", default: RetentionPolicy.standard.checkInSeconds, written: writtenDuration,
        help: { "Keep check-ins (devices, visitor fields) this long: \($0) (default), 4w, 36h; then deleted." }, parse: RetentionSettings.period)
    /// Its default is also at most `retention` (`RetentionSettings.policy`).
    static let refusalRetention = Setting.server(
        "refusal-retention", "PERIOD", default: RetentionPolicy.standard.refusalSeconds, written: writtenDuration,
        help: { "Keep refused scans this long, at most retention (default \($0))." }, parse: RetentionSettings.period)
    static let auditRetention = Setting.server(
        "audit-retention", "PERIOD", default: RetentionPolicy.standard.auditSeconds, written: writtenDuration,
        help: { "Keep the audit log (who exported, erased, queried) this long (default \($0))." }, parse: RetentionSettings.period)
    static let keepCounts = Setting.server(
        "keep-counts", "yes|no", default: RetentionPolicy.standard.keepsDailyCounts, written: { $0 ? "yes" : "no" },
        help: { "Keep per-day counts per venue of deleted check-ins (default \($0))." }, parse: SettingParser.yesNo)

    // MARK: Abuse budgets

    static let safeNumberTries = Setting.server(
        "safe-number-tries", "N", default: 5, written: String.init,
        help: { "Wrong safe numbers a phone may type before 429, 1-100 (default \($0)); one more a minute." }, parse: number(1...100))
    /// A burst per network; then half of it a minute (`ServerConfiguration`).
    static let newDevicesPerNetwork = Setting.server(
        "new-devices-per-network", "N", default: NewDeviceLimits.standard.perNetworkBurst, written: String.init,
        help: { "New phones one address (IPv6: /64) may check in at once, then N/2 a minute (default \($0); 0: no limit)." },
        parse: number(0...100_000_000))
    static let newDevicesPerCode = Setting.server(
        "new-devices-per-code", "N", default: NewDeviceLimits.standard.perCode, written: String.init,
        help: { "New phones one code (a venue's window) may check in (default \($0); 0: no limit)." }, parse: number(0...100_000_000))
    static let newDevicesPerHour = Setting.server(
        "new-devices-per-hour", "N", default: VenueProfile.standard.newDevicesPerHour, written: String.init, scoped: true,
        help: { "New phones a venue takes an hour, all addresses together (default \($0); 0: no limit)." }, parse: number(0...100_000_000))

    /// Every setting, in `serve --help` order; a config file may set these and no others.
    static let all: [any SettingDeclaration] = [
        listen, adminListen, database, durability, databasePool, secretFile, stateDirectory, basePath, venues,
        name, accent, logo, period, skew, duplicateTime, visitorFields, timeZone, receiptFreshness, controller,
        capacity, exit, maxStay, closeAt, occupancyOrigins, trustedProxies, adminAuth, proxyUserHeader, proxyGroupsHeader,
        proxyRoleSteward, proxyRoleSupervisor, proxyRoleAdmin, requireTOTP, maxConnections, maxConnectionsPerClient, requestTimeout, threads, apiRate,
        retention, refusalRetention, auditRetention, keepCounts, safeNumberTries, newDevicesPerNetwork, newDevicesPerCode, newDevicesPerHour,
    ]

    /// The settings a config file may also set per venue, in `all`'s order.
    static let scoped: [SettingKey] = all.map(\.key).filter(\.scoped)

    /// Settings that are no flag of `serve`, only keys and variables: a venue's display name
    /// (a visitor's `--name` elsewhere) and an exit, which is per venue only.
    static let notFlags: [SettingKey] = [name.key, exit.key]

    /// `--secret-file` is repeatable, each flag one file, instead of the setting's `A:B` list.
    /// Old spellings still read (config file, variable, flag), each with a warning naming its
    /// new name; listed nowhere else.
    static let renamed: [(old: any SettingDeclaration, new: SettingKey)] = [(trustedProxyOld, trustedProxies.key)]

    static let secretFileFlag = OptionSpec(secretFile.name, value: secretFile.key.value, repeatable: true,
                                           help: "Master secret or venue key; repeat to accept several, tried in order (rotation).")

    /// A whole number within `range` (never `+5`), as every numeric server setting takes it.
    private static func number(_ range: ClosedRange<Int>) -> @Sendable (String, SettingSource) throws(CommandError) -> Int {
        { text, source throws(CommandError) in try ServerConfiguration.number(text, range, source) }
    }

    /// Seconds in the largest unit that divides them (`3h`, `10m`, `28d`): how the duration and
    /// retention settings write a default.
    private static func writtenDuration(_ seconds: Int64) -> String {
        for (unit, length) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds > 0 && seconds % length == 0 {
            return "\(seconds / length)\(unit)"
        }
        return "\(seconds)s"
    }

    /// Visitor fields as the setting lists them (`none`, `name,phone`).
    private static func writtenFields(_ fields: VisitorFields) -> String {
        let names = [(VisitorFields.name, "name"), (.phone, "phone")].filter { fields.contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}

extension SettingCatalog {
    /// Every server setting (`ServerSetting.all`); config files from `$QRCHECKIN_SERVER_CONFIG`.
    static let server = SettingCatalog(keys: (ServerSetting.all + ServerSetting.renamed.map(\.old)).map(\.key), configVariable: "QRCHECKIN_SERVER_CONFIG")
}

/// `admin-auth`: how operators sign in to the console.
enum AdminAuth: String, Sendable {
    case password
    case proxy
    case both = "password,proxy"
}
