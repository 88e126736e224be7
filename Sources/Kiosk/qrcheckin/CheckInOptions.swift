import KioskAdapters
import SharedCLI
import SharedDomain
import SharedSystem

/// The settings `code` and `verify` share with `run`: the secret (or secrets), the venue, the
/// period (and for `code` the base URL), read from the same layers as `run` — built-in
/// defaults, the config file (`--config` or `$QRCHECKIN_CONFIG`), `QRCHECKIN_*` variables,
/// flags — plus the moment `--at`. Settings these commands do not use are ignored.
struct CheckInOptions {
    /// `--config`, `--secret-file`, `--venue`, `--period`, `--at`, in `--help` order.
    static func specs(secretFiles repeatable: Bool) -> [OptionSpec] {
        [
            OptionSpec("config", short: "c", value: "FILE", repeatable: true,
                       help: "Read settings from FILE, as 'run' does (default $QRCHECKIN_CONFIG)."),
            OptionSpec("secret-file", value: "FILE", repeatable: repeatable, help: repeatable
                ? "Master secret or venue key; repeat to accept several, tried in order (rotation)."
                : "Master secret or venue key (default: $CREDENTIALS_DIRECTORY/secret, else STATE/secret)."),
            OptionSpec("venue", value: "VENUE", help: "Venue id: 1-16 of 0-9 A-Z - ., not only dots."),
            OptionSpec("period", value: "SECONDS", help: "Rotation period: 1-3600 seconds, as 15, 15s or 1m (default 15)."),
            OptionSpec("at", value: "TIME", help: "The moment: Unix seconds, @UNIX, ISO 8601 with a zone, or now (default)."),
        ]
    }

    /// The lookup order and exit statuses, for each command's `--help`.
    static let secretHelp = """
        Settings come from the same places as for 'run': the config file (--config or
        $QRCHECKIN_CONFIG), then QRCHECKIN_SECRET_FILE, QRCHECKIN_VENUE, QRCHECKIN_PERIOD
        (and QRCHECKIN_BASE_URL), then flags. The secret is read from the secret-file setting,
        else $CREDENTIALS_DIRECTORY/secret (systemd LoadCredential=), else the installed
        service's when this user may read it, else the state directory's secret file. It must
        be a regular file of this user's (or root's) that only its owner can access (chmod
        600): a master secret (hex, as 'qrcheckin keygen' writes it) or a venue key ('keygen
        --venue'), which serves its venue only. Secrets are never printed.

        INSTALLED SERVICE: where the package is installed and this user may read its secret
        (root), what the service reads is used: /etc/qrcheckin/secret and, unless --config
        or $QRCHECKIN_CONFIG names other files, /etc/qrcheckin/qrcheckin.conf. With --venue V
        (or QRCHECKIN_VENUE) and /etc/qrcheckin/secrets/V or /etc/qrcheckin/V.conf present,
        qrcheckin@V's: V.conf over the shared file, and secrets/V. So codes agree with the
        running daemon, never with a secret 'make run' once generated.
        """

    /// The secret files given, in order; empty means the documented lookup.
    let secretFiles: [String]
    /// The installed service's secret, if the service is installed (see `InstalledService`).
    let installedSecret: InstalledService.Secret?
    /// Where `run` with the same settings keeps its state (and so its generated secret).
    let secretLocations: DefaultLocations
    /// The configured venue, if any layer names one.
    let venue: VenueID?
    /// Where the venue came from, to blame the right source when a venue key disagrees.
    let venueSource: SettingSource?
    let period: RotationPeriod
    /// The base URL setting (only `code` uses it).
    let baseURL: String
    let unixTime: Int64
    /// Whether `--at` was given (else `unixTime` is the time of parsing).
    let hasExplicitTime: Bool

    /// Reads the layers; `usesBaseURL` is false for `verify`, which ignores the base URL (it is
    /// not signed), so a bad one cannot stop it. `service` is the installed service whose
    /// config and secret are used when nothing names them and this user may read its secret.
    init(_ arguments: ParsedArguments, environment: [String: String], usesBaseURL: Bool,
         service: InstalledService = .system) throws(CommandError) {
        // Which daemon's files: a venue given by flag or variable picks `qrcheckin@VENUE`'s.
        let named = (arguments["venue"] ?? environment[DaemonSetting.venue.key.environmentName]).flatMap { try? VenueID($0) }
        installedSecret = service.secret(for: named)
        let layers = try SettingLayers(flags: arguments, environment: environment,
                                       installed: service.usableFiles(for: named)?.configFiles ?? [])
        let flagFiles = arguments.all("secret-file")
        if !flagFiles.isEmpty {
            for file in flagFiles where file.isEmpty || file.contains("\0") { throw .usage("--secret-file: must be a path") }
            secretFiles = flagFiles
        } else {
            secretFiles = try layers.value(DaemonSetting.secretFile).map { [$0] } ?? []
        }
        secretLocations = try DaemonLocations(layers, environment: environment, stateOnly: true).secretLocations
        // Every layer is validated, as 'run' does: a bad line stays an error while a flag hides it.
        let venue = try layers.valueAndSource(DaemonSetting.venue)
        self.venue = venue.source == nil ? nil : venue.value
        venueSource = venue.source
        period = try layers.value(DaemonSetting.period)
        // `verify` ignores the base URL (it is not signed), so a bad one cannot stop it.
        baseURL = usesBaseURL ? try layers.value(DaemonSetting.baseURL) : DaemonSetting.baseURL.defaultValue
        let now = SystemClock().now().seconds
        hasExplicitTime = arguments["at"] != nil
        if let text = arguments["at"] {
            do {
                unixTime = try TimeArgument.moment(text, now: now)
            } catch {
                throw .usage("--at must be \(error.reason)")
            }
        } else {
            unixTime = now
        }
    }

    /// The key sources with the paths they came from, by the documented lookup order; never
    /// creates a secret.
    func loadKeys(_ context: CommandContext) throws(CommandError) -> [(keys: SigningKeySource, path: String)] {
        do {
            if secretFiles.isEmpty {
                let found = try SecretFile.resolveKeySource(
                    explicitPath: nil, environment: context.environment,
                    locations: secretLocations, createIfMissing: false, installed: installedSecret)
                return [(found.keys, found.path)]
            }
            var loaded: [(keys: SigningKeySource, path: String)] = []
            for path in secretFiles { loaded.append((try SecretFile.loadKeySource(from: path), path)) }
            return loaded
        } catch {
            throw CommandError(error)
        }
    }

    /// The venue to serve: the configured one, else the venue keys' own venue, else `fallback`.
    /// A configured venue no key serves is refused, naming both.
    func venue(for keys: [(keys: SigningKeySource, path: String)], fallback: VenueID?) throws(CommandError) -> VenueID? {
        let bound = keys.compactMap { $0.keys.boundVenue }
        if let venue {
            if keys.allSatisfy({ $0.keys.boundVenue != nil }), !bound.contains(venue) {
                let files = keys.map { "\($0.path) serves \($0.keys.boundVenue!)" }.joined(separator: ", ")
                throw (venueSource ?? .flag("venue")).error("no key for venue \(venue): \(files) only (a venue key signs for its own venue)")
            }
            return venue
        }
        if bound.count == keys.count, let first = bound.first, bound.allSatisfy({ $0 == first }) { return first }
        return fallback
    }
}
