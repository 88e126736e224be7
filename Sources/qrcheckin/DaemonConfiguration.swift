import CheckInCLI
import CheckInData
import CheckInDomain
import Glibc

/// The daemon's settings as one typed value, built once from its layers (built-in defaults, a
/// config file, the environment, flags: each later layer overriding the earlier ones).
struct DaemonConfiguration: Sendable {
    var venue: VenueID
    var baseURL: String
    var period: RotationPeriod
    var outputDirectory: String
    var stateDirectory: String
    /// An explicit secret file; nil means the documented lookup (credentials, then state dir).
    var secretFile: String?
    var socketPath: String
    var opsGroup: gid_t?
    var scale: Int
    var margin: Int
    var level: ErrorCorrectionLevel
    /// A node_exporter textfile-collector directory that also gets the metrics, if any.
    var metricsDirectory: String?
    /// Show no code until the kernel says the clock is synchronised.
    var requireClockSync: Bool
    /// The config files read, in layering order (SIGHUP reads them again).
    var configPaths: [String]
    /// The flags it was made from, to merge again on reload.
    let flags: ParsedArguments

    /// The options `run` accepts: `--config` and one per setting.
    static let options: [OptionSpec] =
        [OptionSpec("config", short: "c", value: "FILE", repeatable: true,
                    help: "Read settings from FILE (key = value; repeat to layer; -FILE: optional).")]
        + SettingKey.all.map(\.option)

    /// Merges and validates every setting. Errors name the source (flag, variable, or file:line).
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        let layers = try SettingLayers(flags: flags, environment: environment)
        self.flags = flags
        configPaths = layers.configPaths
        let locations = try Locations(layers, environment: environment)
        venue = try layers.value("venue") { text, source throws(CommandError) in
            do throws(CheckInCodeError) { return try VenueID(text) } catch { throw source.error(error.description) }
        } ?? .demo
        baseURL = try layers.value("base-url") { text, source throws(CommandError) in
            do throws(CheckInCodeError) { try CheckInCodeIssuer.validateBaseURL(text) } catch { throw source.error(error.description) }
            return text
        } ?? CheckInCodeIssuer.defaultBaseURL
        period = try layers.value("period", TimeArgument.period) ?? .standard
        outputDirectory = locations.outputDirectory
        socketPath = locations.socketPath
        stateDirectory = locations.stateDirectory
        secretFile = try layers.value("secret-file", Self.path)
        opsGroup = try layers.value("ops-group") { name, source throws(CommandError) in
            guard let id = GroupDatabase.id(of: name) else { throw source.error("no such group \(Quoted(name))") }
            return id
        }
        scale = try Self.number(layers, "scale", 1...64) ?? 8
        margin = try Self.number(layers, "margin", 1...64) ?? 4
        level = try layers.value("level") { value, source throws(CommandError) in
            guard let level = ErrorCorrectionLevel(letter: value) else { throw source.error("must be L, M, Q or H, got \(Quoted(value))") }
            return level
        } ?? .medium
        metricsDirectory = try layers.value("metrics-dir", Self.path)
        requireClockSync = try layers.value("require-clock-sync", Self.yesNo) ?? false
    }

    /// Where a daemon writes and listens: all that client commands (`status`, `ctl`, `shake`,
    /// `show`) need, built from those two settings only.
    struct Locations: Sendable {
        let outputDirectory: String
        let socketPath: String
        /// The state directory (`status --all` finds venues that are down by theirs).
        let stateDirectory: String

        /// Reads output-dir, socket and state-dir from the layers (defaults when unset).
        init(_ layers: SettingLayers, environment: [String: String]) throws(CommandError) {
            let defaults = DefaultLocations(environment: environment)
            outputDirectory = try layers.value("output-dir", DaemonConfiguration.path) ?? defaults.outputDirectory
            socketPath = try layers.value("socket", DaemonConfiguration.path) ?? outputDirectory + "/control.sock"
            stateDirectory = try layers.value("state-dir", DaemonConfiguration.path) ?? defaults.stateDirectory
        }

        /// Reads the layers and only these settings from them.
        init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
            try self.init(SettingLayers(flags: flags, environment: environment), environment: environment)
        }
    }

    /// A whole-number setting within `range`.
    private static func number(_ layers: SettingLayers, _ name: String, _ range: ClosedRange<Int>) throws(CommandError) -> Int? {
        try layers.value(name) { value, source throws(CommandError) in
            guard let number = Int(value), range.contains(number) else {
                throw source.error("must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(Quoted(value))")
            }
            return number
        }
    }

    /// A yes/no setting (also true/false, on/off, 1/0, as systemd spells booleans).
    private static func yesNo(_ value: String, _ source: SettingSource) throws(CommandError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw source.error("must be yes or no, got \(Quoted(value))")
        }
    }

    /// A path setting: non-empty; relative paths are taken from the working directory.
    private static func path(_ value: String, _ source: SettingSource) throws(CommandError) -> String {
        guard !value.isEmpty, !value.contains("\0") else { throw source.error("must be a path") }
        return value
    }
}
