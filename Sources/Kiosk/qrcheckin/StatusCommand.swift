import KioskAdapters
import KioskCore
import KioskViews
import SharedCLI
import SharedJSON
import SharedSystem
import SharedText

/// `qrcheckin status`: the daemon's state and countdown, from `current.json` alone.
struct StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show the current code, its countdown, the modes and the daemon's health.",
        options: ClientOptions.specs + [
            OptionSpec("all", help: "One line for every venue on this host (see docs/VENUES.md)."),
            OptionSpec("json", help: "Print the report as JSON."),
            OptionSpec("watch", short: "w", help: "Update every second until interrupted."),
            OptionSpec("lang", value: "ko|en", help: "Language of the words (default: the locale's)."),
        ],
        discussion: """
            Reads OUTPUT/current.json, so any user who can read it may ask; no socket is needed.
            When this user may also use the control socket, the daemon's live state is used
            (a daemon that cannot write its files is reported degraded at once).
            A running state is stale when its code expired more than 5 seconds ago or the
            daemon's process is gone; a control socket that refuses connections means the
            daemon is gone too. Without --lang the words follow the locale: Korean when
            LC_ALL, else LC_MESSAGES, else LANG starts with 'ko', English otherwise.
            --watch stops with exit 74 when standard output cannot be written.

            --venue V reports venue V's daemon: OUTPUT/V (the template unit qrcheckin@V writes
            to /run/qrcheckin/V), or the default daemon when its current.json names V. --all
            prints one line per venue: the default daemon, every OUTPUT/V holding a daemon's
            files and every venue with a state directory (STATE/V) whose daemon is down; its
            exit status is the worst line's, and 3 when no venue is found at all.

            EXIT STATUS: 0 running and current (also when paused on purpose); 1 running but
            degraded; 3 not running, stopped, or stale; 64 bad command line; 74 standard
            output cannot be written; 77 the daemon's directory fails the trust check (another
            user could have made or changed it: nothing in it is believed; docs/STATE.md);
            78 invalid configuration (the daemon's config file or QRCHECKIN_* variables).
            """
    )

    let options: ClientOptions
    let all: Bool
    let json: Bool
    let watch: Bool
    let language: Language

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        all = arguments.has("all")
        options = try ClientOptions(arguments, context: context, allVenues: all)
        json = arguments.has("json")
        watch = arguments.has("watch")
        language = try arguments.choice("lang", as: Language.self) ?? .fromLocale(context.environment)
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        guard watch else { return try report(context) }
        // Redraw on each whole second until SIGINT/SIGTERM (default actions end the process)
        // or until standard output fails (exit 74: nobody reads it any more).
        let clear = context.standardOutputIsTerminal && !json ? "\u{1B}[H\u{1B}[2J" : ""
        while true {
            try context.output(clear)
            _ = try report(context)
            let clock = SystemClock()
            clock.sleepToNextSecond(after: clock.now())
        }
    }

    private typealias Evaluation = DaemonProbe.Evaluation

    /// Prints one report (or the table of every venue) and returns its exit status.
    private func report(_ context: CommandContext) throws(CommandError) -> ExitCode {
        guard !all else { return try table(context) }
        switch evaluate(options.outputDirectory, socketPath: options.socketPath) {
        case .missing(let message):
            return try notRunning(context, message)
        case .refused(let message):
            throw CommandError(.noPermission, message)
        case .report(let report, let pngPath, let age):
            let reporting = DaemonProbe().reporting(options.outputDirectory)
            try context.output(json ? report.json(pngAgeSeconds: age, reporting: reporting).serialized + "\n"
                : report.text(language: language, pngPath: pngPath, pngAgeSeconds: age, reporting: reporting))
            return ExitCode(rawValue: report.verdict.exitStatus) ?? .failure
        }
    }

    /// `--all`: one line (or JSON entry) per venue found on the host.
    private func table(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let rows = options.venues.all().map { entry -> VenueStatusTable.Row in
            let socket = entry.outputDirectory + "/control.sock"
            switch evaluate(entry.outputDirectory, socketPath: socket) {
            case .missing(let message), .refused(let message):
                return .init(venue: entry.venueHint, outputDirectory: entry.outputDirectory, missing: message)
            case .report(let report, _, let age):
                return .init(venue: entry.venueHint, outputDirectory: entry.outputDirectory, report: report, pngAgeSeconds: age)
            }
        }
        let table = VenueStatusTable(rows: rows, searched: options.venues.roots.flatMap { [$0.output] + ($0.state.map { [$0] } ?? []) })
        try context.output(json ? table.json().serialized + "\n" : table.text(language: language))
        return ExitCode(rawValue: table.verdict.exitStatus) ?? .failure
    }

    /// Judges the daemon writing to `directory` with its socket at `socketPath` (`DaemonProbe`).
    private func evaluate(_ directory: String, socketPath: String) -> Evaluation {
        DaemonProbe().evaluate(directory, socketPath: socketPath)
    }

    private func notRunning(_ context: CommandContext, _ message: String) throws(CommandError) -> ExitCode {
        if json {
            try context.output(JSONValue.object([("status", .string("not-running")), ("exitStatus", .number(3)),
                                            ("summary", .string(message))]).serialized + "\n")
        } else {
            try context.output("qrcheckin: \(message)\n")
        }
        return .notRunning
    }
}
