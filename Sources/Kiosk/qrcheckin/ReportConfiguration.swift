import Glibc
import KioskAdapters
import KioskCore
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin report`'s settings as one typed value, from the same layers as `run`'s (the
/// daemon's config file, `QRCHECKIN_*`, flags), and the daemon it reports on.
struct ReportConfiguration {
    /// The server's base URL.
    var reportTo: String
    var venue: VenueID
    var kiosk: KioskName
    var intervalSeconds: Int
    /// The daemon's output directory and control socket, found as `status` finds them.
    var daemon: DaemonLocations.Client
    /// Where `report.json` and `report.prom` go (`ReporterFiles`).
    var reportDirectory: String
    /// The key file named by `secret-file`, if any.
    var secretFile: String?
    /// The daemon's state directory (a developer's generated secret is there).
    var stateDirectory: String
    /// node_exporter's textfile directory, if set.
    var metricsDirectory: String?

    /// Merges and validates the settings `report` reads. Errors name the source.
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        let layers = try SettingLayers(flags: flags, environment: environment)
        guard let reportTo = try layers.value(DaemonSetting.reportTo) else {
            throw CommandError(.config, "report-to is not set: nothing to report to (set report-to = URL, the check-in server's base "
                + "like base-url, in the config file, QRCHECKIN_REPORT_TO or --report-to)")
        }
        self.reportTo = reportTo
        venue = try layers.value(DaemonSetting.venue)
        intervalSeconds = try layers.value(DaemonSetting.reportInterval)
        if let named = try layers.value(DaemonSetting.kioskName) {
            kiosk = named
        } else {
            let host = Self.hostName()
            do throws(KioskNameError) {
                kiosk = try KioskName(host)
            } catch {
                throw CommandError(.config, "kiosk-name is not set and the host name is no kiosk name (\(error.description)): set kiosk-name")
            }
        }
        // The daemon's places, as its own unit has them: a unit's RUNTIME_DIRECTORY and
        // STATE_DIRECTORY here are the reporter's, not the daemon's.
        var daemonEnvironment = environment
        daemonEnvironment["RUNTIME_DIRECTORY"] = nil
        daemonEnvironment["STATE_DIRECTORY"] = nil
        let locations = try DaemonLocations(layers, environment: daemonEnvironment)
        daemon = locations.client(venue: nil, in: VenueDirectories(roots: locations.venueRoots()), venueOf: ClientOptions.venue(of:))
        reportDirectory = ReporterFiles.directory(environment: environment, daemonOutput: daemon.outputDirectory)
        secretFile = try layers.value(DaemonSetting.secretFile)
        stateDirectory = locations.stateDirectory
        metricsDirectory = try layers.value(DaemonSetting.metricsDirectory)
    }

    /// The report key: from `secret-file` (a report key, or a master secret or venue key it is
    /// derived from and then forgotten), else systemd's credential `report-key`, else the
    /// daemon's generated secret in its state directory (one machine, `make run`).
    func reportKey(environment: [String: String]) throws(CommandError) -> (key: ReportKey, path: String) {
        var path = secretFile
        if path == nil, let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty,
           DefaultLocations.pathExists(credentials + "/" + SecretFile.reportKeyFileName) {
            path = credentials + "/" + SecretFile.reportKeyFileName
        }
        let found = path ?? stateDirectory + "/" + SecretFile.fileName
        do {
            return (try SecretFile.loadReportKey(from: found, venue: venue, authenticator: HMACAuthenticator()), found)
        } catch .missing where path == nil {
            throw CommandError(.noInput, "no report key: \(found) does not exist; give one with --secret-file FILE or systemd's "
                + "LoadCredential=report-key:FILE (qrcheckin keygen --report --venue \(venue) --from SECRET -o FILE makes it)")
        } catch {
            throw CommandError(error)
        }
    }

    /// The kernel's host name.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cString: buffer)
    }
}
