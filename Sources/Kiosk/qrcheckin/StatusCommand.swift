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

    /// One daemon's verdict, or why there is none to give.
    private enum Evaluation {
        case report(StatusReport, pngPath: String, pngAgeSeconds: Int64?)
        case missing(String)
        /// The directory (or the socket's) must not be believed: why.
        case refused(String)
    }

    /// Prints one report (or the table of every venue) and returns its exit status.
    private func report(_ context: CommandContext) throws(CommandError) -> ExitCode {
        guard !all else { return try table(context) }
        switch evaluate(options.outputDirectory, socketPath: options.socketPath) {
        case .missing(let message):
            return try notRunning(context, message)
        case .refused(let message):
            throw CommandError(.noPermission, message)
        case .report(let report, let pngPath, let age):
            try context.output(json ? report.json(pngAgeSeconds: age).serialized + "\n" : report.text(language: language, pngPath: pngPath, pngAgeSeconds: age))
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

    /// Judges the daemon writing to `directory` with its socket at `socketPath`, believing
    /// nothing from a directory that fails the trust check (docs/STATE.md, Directory trust).
    private func evaluate(_ directory: String, socketPath: String) -> Evaluation {
        let jsonPath = directory + "/current.json"
        let pngPath = directory + "/current.png"
        let held: TrustedDirectory?
        let peer: ExpectedPeer?
        do {
            held = try DaemonDirectory.lookUp(directory)
            let socketDirectory = PathName.directory(of: socketPath)
            peer = try (socketDirectory == directory ? held : DaemonDirectory.lookUp(socketDirectory)).map { ExpectedPeer(directory: $0) }
        } catch {
            return .refused(DaemonDirectory.refusal(error))
        }
        let report: StatusReport
        // The daemon's own word beats the file when this user may ask: a daemon that cannot
        // write its files says it is degraded at once instead of seconds later. It is asked
        // first, so the file is read and parsed only when the socket is not this user's (or
        // nobody answers): the reply is the same state, one parse instead of two.
        if let live = liveDocument(socketPath, peer: peer) {
            report = StatusReport(document: live, now: SystemClock().now(), processAlive: true, socketRefused: false)
        } else {
            let document: StateDocument
            do {
                // By the descriptor that passed the check (by path only when there is none to check:
                // then the read fails with its own reason).
                let bytes = try held?.read("current.json", limit: 64 * 1024) ?? TextFile.read(jsonPath, limit: 64 * 1024)
                document = try StateDocument(parsing: bytes)
            } catch {
                let reason = (error as? SystemError).map { $0.isMissing ? "no \(jsonPath)" : $0.description }
                return .missing("not running: " + (reason ?? "\(jsonPath) is unreadable: \(error)"))
            }
            let alive = SignalProcessLiveness().isAlive(pid: document.pid)
            // A socket that refuses connections has no listener: the daemon died (kill -9) even
            // if its pid lingers as a zombie or was reused. A stopped daemon removed its socket.
            let refused = alive && document.phase != .stopped && ControlSocketProbe.refuses(socketPath)
            report = StatusReport(document: document, now: SystemClock().now(), processAlive: alive, socketRefused: refused)
        }
        let age = FileAge.seconds(of: pngPath, now: SystemClock().now())
        return .report(report, pngPath: pngPath, pngAgeSeconds: age)
    }

    private func liveDocument(_ socketPath: String, peer: ExpectedPeer?) -> StateDocument? {
        (try? ControlClient.send("get", to: socketPath, peer: peer, timeoutMilliseconds: 500))
            .flatMap { JSONValueReply(text: $0).state }
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
