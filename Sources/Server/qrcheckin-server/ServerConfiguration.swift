import Glibc
import ServerConsole
import ServerDomain
import ServerHTTP
import ServerSite
import SharedSystem
import SharedCLI
import SharedDomain

/// The server's settings as one typed value, read from the layers (built-in defaults, config
/// files, `QRCHECKIN_SERVER_*` variables, flags), each value checked where it came from: a bad
/// one fails at start naming the flag, the variable, or the file, line and key.
struct ServerConfiguration {
    var listen: ListenAddress
    /// The operator console's address; nil: no console (`admin-listen = none`).
    var adminListen: ListenAddress?
    /// The layers, the database, its durability and pool: what every ledger command reads.
    var ledger: LedgerCommandOptions
    /// Key files in the order tried; empty means qrcheckin's lookup (credentials, state dir).
    var secretFiles: [String]
    /// qrcheckin's state directory, when chosen (`state-dir`, else the kiosk's own variable
    /// `QRCHECKIN_STATE_DIR`): where qrcheckin's lookup finds the secret `run --state-dir` made.
    var kioskStateDirectory: String?
    var basePath: String
    var venues: VenueDirectory
    /// The one trust list: forwarding headers and the proxy's sign-in headers (`trusted-proxies`).
    var trustedProxies: [IPNetwork]
    /// How operators sign in (`admin-auth`, `proxy-*`).
    var signIn: ConsoleSignInPolicy
    /// What the operator should be told at start (an old setting's spelling).
    var warnings: [String] = []
    /// Console roles that must have a second factor (`require-totp`).
    var requireTOTP: Set<ConsoleRole>
    var limits: HTTPServerLimits
    /// API calls a second per token (`api-rate`).
    var apiRate: Int
    var safeNumberTries: Int
    /// The new-device budgets of a network and a code (the venue's is in its profile).
    var newDevices: NewDeviceLimits
    /// How long check-ins and refused scans are kept (enforced daily by `serve`).
    var retention: RetentionPolicy
    /// What the visitor pages show: receipt freshness, the privacy notice's controller, brands.
    var look: SiteLook
    /// Origins whose pages may read the occupancy (`occupancy-origins`, CORS).
    var occupancyOrigins: [String]

    /// Where the visitor log is (`ledger.database`).
    var database: DatabaseLocation { ledger.database }

    /// The options: `--config`, then every setting as a flag (`--secret-file` repeatable), but
    /// those set only in files and variables (`ServerSetting.notFlags`).
    static let options: [OptionSpec] = [
        LedgerCommandOptions.config(help: "Read settings from FILE (repeatable; default $QRCHECKIN_SERVER_CONFIG)."),
    ] + ServerSetting.all.map(\.key).filter { key in !ServerSetting.notFlags.contains { $0.name == key.name } }.map { key in
        key.name == ServerSetting.secretFile.name ? ServerSetting.secretFileFlag : key.option
    } + ServerSetting.renamed.map(\.old.key.option)

    init(_ flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        ledger = try LedgerCommandOptions(flags, environment: environment, tuned: true)
        let layers = ledger.layers
        listen = try layers.value(ServerSetting.listen)
        adminListen = try layers.value(ServerSetting.adminListen)
        // Each --secret-file flag is one file; without any, the setting's list (files, variable).
        let flagFiles = flags.all(ServerSetting.secretFile.name)
        if !flagFiles.isEmpty {
            for file in flagFiles where file.isEmpty || file.contains("\0") { throw .usage("--secret-file: must be a path") }
            secretFiles = flagFiles
        } else {
            secretFiles = try layers.value(ServerSetting.secretFile) ?? []
        }
        kioskStateDirectory = try layers.value(ServerSetting.stateDirectory) ?? environment["QRCHECKIN_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        basePath = try layers.value(ServerSetting.basePath)
        venues = try Self.venues(layers)
        occupancyOrigins = try layers.value(ServerSetting.occupancyOrigins)
        trustedProxies = try layers.value(ServerSetting.trustedProxies)
        if layers.sources(of: ServerSetting.trustedProxies.key).isEmpty, let old = try layers.value(ServerSetting.trustedProxyOld) {
            trustedProxies = old
        }
        for (old, new) in ServerSetting.renamed where !layers.sources(of: old.key).isEmpty {
            warnings.append("\(old.key.name) is now spelt \(new.name): read, but write \(new.name)")
        }
        signIn = try Self.signIn(layers)
        requireTOTP = Set(try layers.value(ServerSetting.requireTOTP))
        limits = HTTPServerLimits()
        limits.connections = try layers.value(ServerSetting.maxConnections)
        limits.connectionsPerClient = try layers.value(ServerSetting.maxConnectionsPerClient)
        limits.requestSeconds = try layers.value(ServerSetting.requestTimeout)
        limits.threads = try layers.value(ServerSetting.threads) ?? max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        apiRate = try layers.value(ServerSetting.apiRate)
        safeNumberTries = try layers.value(ServerSetting.safeNumberTries)
        newDevices = .standard
        newDevices.perNetworkBurst = try layers.value(ServerSetting.newDevicesPerNetwork)
        newDevices.perNetworkPerMinute = max(1, newDevices.perNetworkBurst / 2)
        newDevices.perCode = try layers.value(ServerSetting.newDevicesPerCode)
        retention = try RetentionSettings.policy(layers)
        look = try Self.look(layers, venues: Array(venues.profiles.keys), retention: retention)
    }

    /// How operators sign in: `admin-auth`, the proxy's headers and the groups of each role.
    private static func signIn(_ layers: SettingLayers) throws(CommandError) -> ConsoleSignInPolicy {
        let auth = try layers.value(ServerSetting.adminAuth)
        guard auth != .password else { return .passwordOnly }
        var roles: [ConsoleRole: Set<String>] = [:]
        for (role, setting) in [(ConsoleRole.steward, ServerSetting.proxyRoleSteward), (.supervisor, ServerSetting.proxyRoleSupervisor),
                                (.admin, ServerSetting.proxyRoleAdmin)] {
            let groups = try layers.value(setting)
            if !groups.isEmpty { roles[role] = Set(groups) }
        }
        let proxy = ProxySignInSettings(userHeader: try layers.value(ServerSetting.proxyUserHeader),
                                        groupsHeader: try layers.value(ServerSetting.proxyGroupsHeader), roleGroups: roles)
        return ConsoleSignInPolicy(password: auth == .both, proxy: proxy)
    }

    /// The pages' settings: `receipt-freshness`, `controller`, and `accent`/`logo` (a logo
    /// file is read now: a missing or oversized one fails at start, not on a visitor's phone).
    private static func look(_ layers: SettingLayers, venues: [VenueID], retention: RetentionPolicy) throws(CommandError) -> SiteLook {
        let freshness = try layers.value(ServerSetting.receiptFreshness)
        let controller = try layers.value(ServerSetting.controller)
        let defaultBrand = VenueBrand(accent: try layers.value(ServerSetting.accent), logo: try layers.value(ServerSetting.logo))
        var brands: [VenueID: VenueBrand] = [:]
        for venue in venues {
            let own = try layers.value(ServerSetting.accent, scope: venue.rawValue)
            let ownLogo = try layers.value(ServerSetting.logo, scope: venue.rawValue)
            if own != nil || ownLogo != nil {
                brands[venue] = VenueBrand(accent: own ?? defaultBrand.accent, logo: ownLogo ?? defaultBrand.logo)
            }
        }
        return SiteLook(receiptFreshnessSeconds: freshness, controller: controller, retentionSeconds: retention.checkInSeconds,
                        defaultBrand: defaultBrand, brands: brands)
    }

    /// The venues served and their profiles, from `layers` (every command that needs a venue's
    /// settings reads them so: `serve`, `inside`, `overlaps`, `checkin`).
    static func venues(_ layers: SettingLayers) throws(CommandError) -> VenueDirectory {
        let defaults = try Self.profile(layers, scope: nil, base: .standard)
        let listed = try layers.value(ServerSetting.venues)
        var profiles: [VenueID: VenueProfile] = [:]
        for key in ServerSetting.scoped {
            for scope in layers.scopes(of: key) {
                // The scope must be a venue id: checked against the (first) line that uses it.
                let venue = try Self.venue(scope, layers.sources(of: key, scope: scope)[0])
                if profiles[venue] == nil { profiles[venue] = try Self.profile(layers, scope: scope, base: defaults) }
            }
        }
        for venue in listed ?? [] where profiles[venue] == nil { profiles[venue] = defaults }
        try checkExits(profiles, layers)
        return VenueDirectory(defaults: defaults, profiles: profiles, servesUnlisted: listed == nil)
    }

    /// Refuses exits that can end no visit, blaming the `exit.VENUE` line: a venue's own exit
    /// (`exit.A = A`), a circle (`exit.A = B`, `exit.B = A`, or longer), or an exit of an exit
    /// (`exit.DOOR = HALL-OUT` where HALL-OUT is itself an exit kiosk). A scan at an exit venue
    /// records an exit, never a check-in, so visits at it never exist for another exit to end.
    private static func checkExits(_ profiles: [VenueID: VenueProfile], _ layers: SettingLayers) throws(CommandError) {
        for venue in profiles.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let target = profiles[venue]?.presence.exitOf else { continue }
            let message: String
            if target == venue {
                message = "a venue cannot be its own exit"
            } else if let next = profiles[target]?.presence.exitOf {
                // Follow the exits from `venue`: back to it is a circle, anywhere else a chain.
                var path = [venue, target]
                while let further = profiles[path.last!]?.presence.exitOf, !path.contains(further) { path.append(further) }
                if profiles[path.last!]?.presence.exitOf == venue { path.append(venue) }
                message = path.last == venue
                    ? "exits go round in a circle (\(path.map(\.rawValue).joined(separator: " → "))): an exit ends visits at a venue that checks visitors in"
                    : "\(target) is itself an exit (exit.\(target) = \(next)), so nobody checks in there: name the venue visitors check in to"
            } else {
                continue
            }
            // The line that set it (the scope is known to hold a value).
            let source = layers.sources(of: ServerSetting.exit.key, scope: venue.rawValue).last
            throw source?.error(message) ?? CommandError(.config, "exit.\(venue.rawValue): \(message)")
        }
    }

    /// An origin a browser sends (`https://kiosk.example.org`, `http://127.0.0.1:8081`).
    static func origin(_ text: String, _ source: SettingSource) throws(CommandError) -> String {
        let scheme = text.hasPrefix("https://") ? "https://" : text.hasPrefix("http://") ? "http://" : nil
        guard let scheme, text.count > scheme.count, text.count <= 200,
              text.dropFirst(scheme.count).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }) else {
            throw source.error("must be origins like https://kiosk.example.org (scheme, host, optional port), comma-separated; got \(Quoted(text))")
        }
        return text.lowercased()
    }

    /// `HH:MM`, 00:00 to 23:59: minutes after midnight.
    static func clockTime(_ text: String, _ source: SettingSource) throws(CommandError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else {
            throw source.error("must be a local time HH:MM from 00:00 to 23:59, got \(Quoted(text))")
        }
        return hour * 60 + minute
    }

    /// A venue's profile: `base` with the settings given for `scope` (or, for nil, unscoped).
    private static func profile(_ layers: SettingLayers, scope: String?, base: VenueProfile) throws(CommandError) -> VenueProfile {
        /// The setting's value for the scope (nil when not set there: then `base`'s), or unscoped
        /// (else its declared default, which is the standard profile's).
        func setting<T>(_ setting: Setting<T>) throws(CommandError) -> T? {
            if let scope { return try layers.value(setting, scope: scope) }
            return try layers.value(setting)
        }
        let name = try setting(ServerSetting.name) ?? nil
        let period = try setting(ServerSetting.period) ?? base.period
        let skew = try setting(ServerSetting.skew) ?? base.skew
        let duplicate = try setting(ServerSetting.duplicateTime) ?? base.duplicateSeconds
        let fields = try setting(ServerSetting.visitorFields) ?? base.visitorFields
        let newDevices = try setting(ServerSetting.newDevicesPerHour) ?? base.newDevicesPerHour
        let capacity = try setting(ServerSetting.capacity) ?? nil
        let exit = try setting(ServerSetting.exit) ?? nil
        let maxStay = try setting(ServerSetting.maxStay) ?? nil
        let closeAt = try setting(ServerSetting.closeAt) ?? nil
        let presence = VenuePresence(capacity: capacity ?? base.presence.capacity, exitOf: exit,
                                     maxStaySeconds: maxStay ?? base.presence.maxStaySeconds, closeAtMinute: closeAt ?? base.presence.closeAtMinute)
        return VenueProfile(displayName: name ?? (scope == nil ? nil : base.displayName), period: period, skew: skew,
                            duplicateSeconds: duplicate, visitorFields: fields, newDevicesPerHour: newDevices, presence: presence)
    }

    static func venue(_ text: String, _ source: SettingSource) throws(CommandError) -> VenueID {
        do throws(CheckInCodeError) { return try VenueID(text) } catch { throw source.error(error.description) }
    }

    static func number(_ text: String, _ range: ClosedRange<Int>, _ source: SettingSource) throws(CommandError) -> Int {
        guard let value = Int(text), range.contains(value), text.first != "+" else {
            throw source.error("must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(Quoted(text))")
        }
        return value
    }

    /// `90`, `90s`, `30m`, `3h`, `1d`: 0 seconds to 30 days.
    static func duration(_ text: String, _ source: SettingSource) throws(CommandError) -> Int64 {
        var digits = Substring(text), unit: Int64 = 1
        switch text.last {
        case "s": digits = digits.dropLast()
        case "m": digits = digits.dropLast(); unit = 60
        case "h": digits = digits.dropLast(); unit = 3600
        case "d": digits = digits.dropLast(); unit = 86_400
        default: break
        }
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits),
              value * unit <= 30 * 86_400 else {
            throw source.error("must be a duration of 0 to 30 days: 90s, 30m, 3h or 1d, got \(Quoted(text))")
        }
        return value * unit
    }

    static func visitorFields(_ text: String, _ source: SettingSource) throws(CommandError) -> VisitorFields {
        if text == "none" { return [] }
        var fields: VisitorFields = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch item.trimmed() {
            case "name": fields.insert(.name)
            case "phone": fields.insert(.phone)
            default: throw source.error("must be none, name, phone or name,phone, got \(Quoted(text))")
            }
        }
        return fields
    }

    /// A base path: empty (the root) or `/SEGMENT…`, no trailing slash, no `.`/`..` segments.
    static func basePath(_ text: String, _ source: SettingSource) throws(CommandError) -> String {
        if text == "" || text == "/" { return "" }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard text.hasPrefix("/"), !text.hasSuffix("/"), text.utf8.count <= 100,
              segments.dropFirst().allSatisfy({ segment in
                  !segment.isEmpty && segment != "." && segment != ".."
                      && segment.utf8.allSatisfy { byte in
                          (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                              || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
                      }
              }) else {
            throw source.error("must be / or a path like /C (letters, digits, - . _ ~; no trailing /), got \(Quoted(text))")
        }
        return text
    }
}

extension StringProtocol {
    /// The text without spaces and tabs around it.
    func trimmed() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
