import KioskAdapters
import KioskCore
import SharedCLI
import SharedDomain
import SharedQR
import SharedSystem

/// Every qrcheckin setting, declared once: name, flag, variable, help line, parser and default.
/// `run` reads them all (`DaemonConfiguration`); clients read the locations
/// (`DaemonLocations`); `code` and `verify` read venue, period, base URL, secret and state
/// (`CheckInOptions`). A new setting is one declaration here, in `all`, plus its documentation.
enum DaemonSetting {
    static let venue = Setting(SettingKey(name: "venue", value: "VENUE", help: "Venue id: 1-16 of 0-9 A-Z - . (default DEMO)."),
                               default: VenueID.demo, parse: SettingParser.venue)
    static let baseURL = Setting(SettingKey(name: "base-url", value: "URL", help: "Check-in URL prefix (default HTTPS://CHECKIN.EXAMPLE.ORG/C)."),
                                 default: CheckInCodeIssuer.defaultBaseURL) { text, source throws(CommandError) in
        do throws(CheckInCodeError) { try CheckInCodeIssuer.validateBaseURL(text) } catch { throw source.error(error.description) }
        return text
    }
    static let period = Setting(SettingKey(name: "period", value: "SECONDS", help: "Rotation period: 1-3600 seconds, as 15, 15s or 1m (default 15)."),
                                default: RotationPeriod.standard) { text, source throws(CommandError) in
        try TimeArgument.period(text, from: source)
    }
    static let outputDirectory = Setting<String?>.optional(
        SettingKey(name: "output-dir", value: "DIR", help: "Where current.png/json/txt go (default: see FILES)."), parse: SettingParser.path)
    static let stateDirectory = Setting<String?>.optional(
        SettingKey(name: "state-dir", value: "DIR", help: "Where settings and the generated secret live (default: see FILES)."), parse: SettingParser.path)
    static let secretFile = Setting<String?>.optional(
        SettingKey(name: "secret-file", value: "FILE", help: "Secret file (default: $CREDENTIALS_DIRECTORY/secret, else STATE/secret)."),
        parse: SettingParser.path)
    static let socket = Setting<String?>.optional(
        SettingKey(name: "socket", value: "PATH", help: "Control socket (default OUTPUT/control.sock)."), parse: SettingParser.path)
    static let opsGroup = Setting<UInt32?>.optional(
        SettingKey(name: "ops-group", value: "GROUP", help: "Group whose members may use the control socket (default: none).")) { name, source throws(CommandError) in
        guard let id = GroupDatabase.id(of: name) else { throw source.error("no such group \(Quoted(name))") }
        return id
    }
    static let scale = Setting(SettingKey(name: "scale", value: "PIXELS", help: "PNG pixels per module, 1-64 (default 8)."),
                               default: 8, parse: SettingParser.number(1...64))
    static let margin = Setting(SettingKey(name: "margin", value: "MODULES", help: "Quiet zone in modules, 1-64 (default 4)."),
                                default: 4, parse: SettingParser.number(1...64))
    static let level = Setting(SettingKey(name: "level", value: "L|M|Q|H", help: "QR error correction level (default M)."),
                               default: ErrorCorrectionLevel.medium) { value, source throws(CommandError) in
        guard let level = ErrorCorrectionLevel(letter: value) else { throw source.error("must be L, M, Q or H, got \(Quoted(value))") }
        return level
    }
    static let metricsDirectory = Setting<String?>.optional(
        SettingKey(name: "metrics-dir", value: "DIR", help: "Also write metrics as DIR/qrcheckin-VENUE.prom (node_exporter textfile collector)."),
        parse: SettingParser.path)
    static let requireClockSync = Setting(
        SettingKey(name: "require-clock-sync", value: "yes|no", help: "Show no code until the kernel says the clock is synchronised (default no)."),
        default: false, parse: SettingParser.yesNo)

    // `qrcheckin report`'s: read by it alone (the daemon never reaches the network), declared
    // here so they live in the same file, variables and flags as every setting.
    static let reportTo = Setting<String?>(
        SettingKey(name: "report-to", value: "URL", help: "Where 'qrcheckin report' reports: the check-in server's base URL (default off)."),
        default: nil) { text, source throws(CommandError) in
        guard text != "off" else { return nil }
        if let problem = ReporterSetup.problem(withReportTo: text) { throw source.error("\(problem), got \(Quoted(text))") }
        return text
    }
    static let kioskName = Setting<KioskName?>.optional(
        SettingKey(name: "kiosk-name", value: "NAME", help: "This kiosk's name in reports (default: the host name).")) { text, source throws(CommandError) in
        do throws(KioskNameError) { return try KioskName(text) } catch { throw source.error(error.description) }
    }
    static let reportInterval = Setting(
        SettingKey(name: "report-interval", value: "SECONDS", help: "Seconds between reports: 5-3600, as 30, 30s or 1m (default 30)."),
        default: 30) { text, source throws(CommandError) in
        guard let seconds = TimeArgument.period(text)?.seconds, seconds >= 5 else {
            throw source.error("must be a whole number of seconds from 5 to 3600 (30, 30s or 1m), got \(Quoted(text))")
        }
        return seconds
    }

    /// Every setting's key, in `--help` and README order (a config file may set these and no others).
    static let all: [SettingKey] = [
        venue.key, baseURL.key, period.key, outputDirectory.key, stateDirectory.key, secretFile.key, socket.key,
        opsGroup.key, scale.key, margin.key, level.key, metricsDirectory.key, requireClockSync.key,
        reportTo.key, kioskName.key, reportInterval.key,
    ]
}

extension DaemonLocations {
    /// The locations the layers choose (output-dir, socket, state-dir) over this user's defaults;
    /// `stateOnly` (the secret lookup of `code` and `verify`) reads state-dir alone, so a
    /// setting those commands never use cannot stop them.
    init(_ layers: SettingLayers, environment: [String: String], stateOnly: Bool = false) throws(CommandError) {
        self.init(outputDirectory: stateOnly ? nil : try layers.value(DaemonSetting.outputDirectory),
                  socketPath: stateOnly ? nil : try layers.value(DaemonSetting.socket),
                  stateDirectory: try layers.value(DaemonSetting.stateDirectory),
                  defaults: DefaultLocations(environment: environment))
    }
}
