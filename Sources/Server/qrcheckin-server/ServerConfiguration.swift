import Glibc
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
    var trustedProxies: [IPNetwork]
    var limits: HTTPServerLimits
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

    /// The options: `--config`, then every setting as a flag (`--secret-file` repeatable).
    static let options: [OptionSpec] = [
        LedgerCommandOptions.config(help: "Read settings from FILE (repeatable; default $QRCHECKIN_SERVER_CONFIG)."),
    ] + SettingCatalog.server.keys.filter { $0.name != "name" && $0.name != "exit" }.map { key in
        key.name == "secret-file"
            ? OptionSpec("secret-file", value: "FILE", repeatable: true, help: "Master secret or venue key; repeat to accept several, tried in order (rotation).")
            : key.option
    }

    init(_ flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        ledger = try LedgerCommandOptions(flags, environment: environment, tuned: true)
        let layers = ledger.layers
        listen = try layers.value("listen") { text, source throws(CommandError) in
            do throws(ListenAddressError) { return try ListenAddress(text) } catch { throw source.error(error.description) }
        } ?? (try! ListenAddress("127.0.0.1:8080"))
        // The console listens apart from the visitors, on loopback unless an operator says otherwise.
        let admin = try layers.value("admin-listen") { text, source throws(CommandError) -> ListenAddress? in
            if text == "none" || text.isEmpty { return nil }
            do throws(ListenAddressError) { return try ListenAddress(text) } catch { throw source.error(error.description + ", or none") }
        }
        switch admin {
        case .some(let chosen): adminListen = chosen  // nil for none
        case .none: adminListen = try! ListenAddress("127.0.0.1:8081")
        }
        let flagFiles = flags.all("secret-file")
        if !flagFiles.isEmpty {
            for file in flagFiles where file.isEmpty || file.contains("\0") { throw .usage("--secret-file: must be a path") }
            secretFiles = flagFiles
        } else {
            secretFiles = try layers.value("secret-file") { text, source throws(CommandError) in
                let files = text.split(separator: ":").map(String.init)
                guard !files.isEmpty, !text.contains("\0") else { throw source.error("must be a path, or paths joined by ':'") }
                return files
            } ?? []
        }
        kioskStateDirectory = try layers.value("state-dir") { text, source throws(CommandError) in
            guard !text.isEmpty, !text.contains("\0") else { throw source.error("must be a directory's path") }
            return text
        } ?? environment["QRCHECKIN_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        basePath = try layers.value("base-path", Self.basePath) ?? "/C"
        venues = try Self.venues(layers)
        occupancyOrigins = try layers.value("occupancy-origins") { text, source throws(CommandError) in
            try text.split(separator: ",").map { item throws(CommandError) in try Self.origin(String(item).trimmed(), source) }
        } ?? []
        trustedProxies = try layers.value("trusted-proxy") { text, source throws(CommandError) in
            try text.split(separator: ",").map { item throws(CommandError) in
                guard let network = IPNetwork(String(item).trimmed()) else {
                    throw source.error("must be addresses or CIDR ranges (127.0.0.1, 10.0.0.0/8, ::1), comma-separated; got \(Quoted(item))")
                }
                return network
            }
        } ?? []
        limits = HTTPServerLimits()
        limits.connections = try layers.value("max-connections") { text, source throws(CommandError) in try Self.number(text, 1...100_000, source) } ?? limits.connections
        limits.connectionsPerClient = try layers.value("max-connections-per-client") { text, source throws(CommandError) in
            try Self.number(text, 0...100_000, source)
        } ?? limits.connectionsPerClient
        limits.requestSeconds = try layers.value("request-timeout") { text, source throws(CommandError) in try Self.number(text, 1...600, source) }
            ?? limits.requestSeconds
        limits.threads = try layers.value("threads") { text, source throws(CommandError) in try Self.number(text, 1...64, source) }
            ?? max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        safeNumberTries = try layers.value("safe-number-tries") { text, source throws(CommandError) in try Self.number(text, 1...100, source) } ?? 5
        newDevices = .standard
        newDevices.perNetworkBurst = try layers.value("new-devices-per-network") { text, source throws(CommandError) in
            try Self.number(text, 0...100_000_000, source)
        } ?? newDevices.perNetworkBurst
        newDevices.perNetworkPerMinute = max(1, newDevices.perNetworkBurst / 2)
        newDevices.perCode = try layers.value("new-devices-per-code") { text, source throws(CommandError) in
            try Self.number(text, 0...100_000_000, source)
        } ?? newDevices.perCode
        retention = try RetentionSettings.policy(layers)
        look = try Self.look(layers, venues: Array(venues.profiles.keys), retention: retention)
    }

    /// The pages' settings: `receipt-freshness`, `controller`, and `accent`/`logo` (a logo
    /// file is read now: a missing or oversized one fails at start, not on a visitor's phone).
    private static func look(_ layers: SettingLayers, venues: [VenueID], retention: RetentionPolicy) throws(CommandError) -> SiteLook {
        let freshness = try layers.value("receipt-freshness") { text, source throws(CommandError) in
            let seconds = try duration(text, source)
            guard seconds >= 1 else { throw source.error("must be at least 1s, got \(Quoted(text))") }
            return seconds
        } ?? SiteLook.standardFreshnessSeconds
        let controller = try layers.value("controller") { text, source throws(CommandError) in
            guard !text.isEmpty, text.count <= 200 else { throw source.error("must be 1-200 characters") }
            return text
        }
        func accent(_ text: String, _ source: SettingSource) throws(CommandError) -> String {
            guard VenueBrand.isAccent(text) else { throw source.error("must be a colour #rrggbb, got \(Quoted(text))") }
            return text.lowercased()
        }
        func logo(_ path: String, _ source: SettingSource) throws(CommandError) -> VenueBrand.Logo {
            guard let type = VenueBrand.Logo.type(ofPath: path) else { throw source.error("must be a .png, .svg, .jpg or .webp file, got \(Quoted(path))") }
            do throws(SystemError) {
                return VenueBrand.Logo(bytes: try RegularFile.read(path, limit: VenueBrand.Logo.maximumBytes), type: type)
            } catch {
                throw source.error(error.description + " (a logo is at most \(VenueBrand.Logo.maximumBytes / 1024) KiB)")
            }
        }
        let defaultBrand = VenueBrand(accent: try layers.value("accent", accent), logo: try layers.value("logo", logo))
        var brands: [VenueID: VenueBrand] = [:]
        for venue in venues {
            let own = try layers.value("accent", scope: venue.rawValue, accent)
            let ownLogo = try layers.value("logo", scope: venue.rawValue, logo)
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
        let listed = try layers.value("venues") { text, source throws(CommandError) in
            try text.split(separator: ",").map { item throws(CommandError) in try Self.venue(String(item).trimmed(), source) }
        }
        var profiles: [VenueID: VenueProfile] = [:]
        for name in Self.scopedNames {
            for scope in layers.scopes(of: name) {
                // The scope must be a venue id: checked against the line that uses it.
                let venue = try layers.value(name, scope: scope) { _, source throws(CommandError) in try Self.venue(scope, source) }!
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
            let source = try layers.value("exit", scope: venue.rawValue) { _, source throws(CommandError) in source }
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

    /// The settings a config file may set per venue.
    static let scopedNames = SettingCatalog.server.keys.filter(\.scoped).map(\.name)

    /// A venue's profile: `base` with the settings given for `scope` (or, for nil, unscoped).
    private static func profile(_ layers: SettingLayers, scope: String?, base: VenueProfile) throws(CommandError) -> VenueProfile {
        func setting<T>(_ name: String, _ parse: (String, SettingSource) throws(CommandError) -> T) throws(CommandError) -> T? {
            if let scope { return try layers.value(name, scope: scope, parse) }
            return try layers.value(name, parse)
        }
        let name = try setting("name") { text, source throws(CommandError) in
            guard !text.isEmpty, text.count <= 64 else { throw source.error("must be 1-64 characters") }
            return text
        }
        let period = try setting("period", TimeArgument.period) ?? base.period
        let skew = try setting("skew") { text, source throws(CommandError) in try number(text, 0...CheckInTime.maximumSkew, source) } ?? base.skew
        let duplicate = try setting("duplicate-time", duration) ?? base.duplicateSeconds
        let fields = try setting("visitor-fields", visitorFields) ?? base.visitorFields
        let newDevices = try setting("new-devices-per-hour") { text, source throws(CommandError) in try number(text, 0...100_000_000, source) }
            ?? base.newDevicesPerHour
        let capacity = try setting("capacity") { text, source throws(CommandError) in try number(text, 1...1_000_000, source) }
        let exit = try setting("exit") { text, source throws(CommandError) in
            guard scope != nil else { throw source.error("is set per venue only: exit.VENUE-OUT = VENUE") }
            return try venue(text, source)
        }
        let maxStay = try setting("max-stay") { text, source throws(CommandError) in
            let seconds = try duration(text, source)
            guard seconds >= 60 else { throw source.error("must be at least a minute, got \(Quoted(text))") }
            return seconds
        }
        let closeAt = try setting("close-at", clockTime)
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
