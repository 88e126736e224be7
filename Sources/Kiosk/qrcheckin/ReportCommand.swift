import KioskAdapters
import SharedCLI
import SharedCurl
import SharedSystem

/// `qrcheckin report`: this kiosk's state to the check-in server, the console's steers back.
struct ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        summary: "Report this kiosk's state to the check-in server and apply the console's steers.",
        options: DaemonConfiguration.options,
        discussion: """
            Runs in the foreground beside 'qrcheckin run' (a process of its own: the daemon
            stays off the network and never waits for it). Every report-interval, and at once
            after a change of mode, health or clock state, it reads the daemon's state as
            'status' does and POSTs a signed report to REPORT-TO/VENUE/kiosk; the server holds
            each report open up to 25 s (a long poll) and answers at once when the console
            has a steer for this kiosk, which is applied through the daemon's control socket
            as 'ctl' would ("paused from the console by mina"). Answers are believed only when
            signed with the venue's report key for that report. While the server is away it
            tries again after the interval, doubling up to 5 minutes; 'status' shows how
            reporting goes. Settings come from the same layers as 'run' (report-to,
            kiosk-name, report-interval, venue, output-dir, socket, secret-file, metrics-dir).

            KEY: the report key, from secret-file (a report key file from 'keygen --report', or
            a master secret or venue key it is derived from), else systemd's credential
            report-key ($CREDENTIALS_DIRECTORY/report-key), else the daemon's generated secret
            in its state directory. The report key can neither issue nor verify codes.

            FILES: report.json and report.prom in $RUNTIME_DIRECTORY under systemd
            (/run/qrcheckin-report), else beside the daemon's outputs.

            EXIT STATUS: 0 stopped by SIGTERM or SIGINT; 64 bad flag; 65, 66, 77 key file
            problems (bad content, missing, unsafe permissions); 69 libcurl or libsodium cannot
            be loaded; 70 the event loop failed; 78 invalid config, report-to not set (nothing
            to report to), the key serves another venue, or the host name is no kiosk name
            and kiosk-name is not set.
            """
    )

    let configuration: ReportConfiguration

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        configuration = try ReportConfiguration(flags: arguments, environment: context.environment)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        // Checked at start, so a broken installation stops it at once with a clear error.
        try LoadedLibrary.require([.curl, .sodium])
        let logger = Logger(environment: context.environment)
        let (key, path) = try configuration.reportKey(environment: context.environment)
        logger.info("using the report key of \(key.venue) from \(path)")
        let transport: CurlTransport
        do {
            transport = try CurlTransport()
        } catch {
            throw CommandError(.unavailable, error.message)
        }
        return try Reporter(configuration: configuration, key: key, transport: transport, logger: logger).run()
    }
}
