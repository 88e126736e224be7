import KioskAdapters
import KioskCore
import SharedCLI
import SharedDomain
import SharedQR

/// The daemon's settings as one typed value, built once from its layers (built-in defaults, a
/// config file, the environment, flags: each later layer overriding the earlier ones).
struct DaemonConfiguration: Sendable {
    var venue: VenueID
    var baseURL: String
    var period: RotationPeriod
    /// An explicit secret file; nil means the documented lookup (credentials, then state dir).
    var secretFile: String?
    /// Where it writes, listens and keeps its state, as clients find it.
    var locations: DaemonLocations
    /// Directory of `current.png`, `current.json`, `current.txt`.
    var outputDirectory: String { locations.outputDirectory }
    /// Directory of persisted settings and the generated secret.
    var stateDirectory: String { locations.stateDirectory }
    /// The control socket.
    var socketPath: String { locations.socketPath }
    var opsGroup: UInt32?  // a gid_t
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
        + DaemonSetting.all.map(\.option)

    /// Merges and validates every setting. Errors name the source (flag, variable, or file:line).
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        let layers = try SettingLayers(flags: flags, environment: environment)
        self.flags = flags
        configPaths = layers.configPaths
        locations = try DaemonLocations(layers, environment: environment)
        venue = try layers.value(DaemonSetting.venue)
        baseURL = try layers.value(DaemonSetting.baseURL)
        period = try layers.value(DaemonSetting.period)
        secretFile = try layers.value(DaemonSetting.secretFile)
        opsGroup = try layers.value(DaemonSetting.opsGroup)
        scale = try layers.value(DaemonSetting.scale)
        margin = try layers.value(DaemonSetting.margin)
        level = try layers.value(DaemonSetting.level)
        metricsDirectory = try layers.value(DaemonSetting.metricsDirectory)
        requireClockSync = try layers.value(DaemonSetting.requireClockSync)
    }
}
