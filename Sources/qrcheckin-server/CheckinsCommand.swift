import CheckInCLI
import CheckInData
import CheckInDomain
import CheckInServerDomain
import CheckInServerPresentation

/// `qrcheckin-server checkins`: the recorded check-ins, oldest first, as a table, CSV or JSON lines.
struct CheckinsCommand: Command {
    static let spec = CommandSpec(
        name: "checkins",
        summary: "List the recorded check-ins (table, CSV or JSON lines).",
        usage: "checkins [OPTIONS]",
        options: [
            OptionSpec("config", short: "c", value: "FILE", repeatable: true, help: "Read settings from FILE, as 'serve' does (default $QRCHECKIN_SERVER_CONFIG)."),
            OptionSpec("database", value: "URL", help: "sqlite:PATH or postgresql://… (default: as 'serve')."),
            OptionSpec("format", short: "f", value: "FORMAT", help: "table, csv or jsonl (default table on a terminal, else csv)."),
            OptionSpec("venue", value: "VENUE", help: "Only this venue's check-ins."),
            OptionSpec("from", value: "TIME", help: "Only those at or after TIME: Unix seconds, @UNIX, ISO 8601 with a zone, or now."),
            OptionSpec("until", value: "TIME", help: "Only those before TIME (same forms)."),
            OptionSpec("limit", value: "N", help: "At most N, the oldest first."),
        ],
        discussion: """
            Prints the visitor log the server recorded, oldest first, streamed (any number of
            rows in constant memory). Columns: id, venue, time (UTC), local_time (this host's
            zone), method (qr, safe-number or staff), window_age (how many windows old the code
            was: 0 current, 1 the previous, -1 a kiosk slightly ahead), device (a pseudonymous id,
            not the cookie), name and phone (when the venue collects them) and operator (staff
            check-ins). CSV has a header line and RFC 4180 quoting; jsonl is one object a line.
            The database is opened, never created; the server may keep running meanwhile.

            EXIT STATUS: 0 listed; 64 bad command line; 65 the database is not a ledger or is
            damaged; 66 the database does not exist; 74 the output cannot be written; 77
            permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    let database: DatabaseLocation
    let format: CheckInExport.Format?
    let query: CheckInQuery

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        let layers = try SettingLayers(flags: arguments, environment: context.environment, catalog: .server)
        database = try layers.value("database", DatabaseLocation.parse) ?? .standard(environment: context.environment)
        format = try arguments.choice("format", as: CheckInExport.Format.self)
        var query = CheckInQuery()
        if let text = arguments["venue"] { query.venue = try ServerConfiguration.venue(text, .flag("venue")) }
        let now = SystemClock().now().seconds
        for (name, keyPath) in [("from", \CheckInQuery.from), ("until", \CheckInQuery.until)] {
            guard let text = arguments[name] else { continue }
            do throws(TimeArgument.Invalid) {
                query[keyPath: keyPath] = WallTime(seconds: try TimeArgument.moment(text, now: now))
            } catch {
                throw .usage("--\(name) must be \(error.reason)")
            }
        }
        query.limit = try arguments.integer("limit", in: 0...Int.max)
        self.query = query
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let ledger = try LedgerOpener.open(database, create: false, clock: SystemClock())
        let export = CheckInExport(format: format ?? (context.standardOutputIsTerminal ? .table : .csv), zone: SystemZone())
        var output = CheckedOutput()
        var failure: CommandError?
        try output.append(export.header)
        do throws(LedgerError) {
            try ledger.export(query) { checkIn in
                do throws(CommandError) {
                    try output.append(export.line(checkIn))
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw CommandError(error)
        }
        if let failure { throw failure }
        try output.flush()
        return .success
    }
}
