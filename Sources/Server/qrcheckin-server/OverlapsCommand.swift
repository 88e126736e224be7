import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server overlaps`: who was at the same venue at the same time as a visit, or as
/// any of one device's visits in a time range. Every run is recorded in the audit log (who,
/// when, which visit, how many rows): the query reveals who met whom.
struct OverlapsCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "overlaps",
        summary: "List the visits that overlapped a visit (or a device's visits), audited.",
        operands: [.oneOf([.option("checkin"), .option("device")])],
        options: LedgerCommandOptions.options() + [
            OptionSpec("checkin", value: "ID", help: "The visit to start from (a receipt's number)."),
            OptionSpec("device", value: "ID", help: "Every visit of this device (its pseudonymous id) in --from/--until."),
            OptionSpec("from", value: "TIME", help: "With --device: visits entered at or after TIME (the forms of checkins --from)."),
            OptionSpec("until", value: "TIME", help: "With --device: visits entered before TIME."),
            OptionSpec("margin", value: "DURATION", help: "Widen both intervals by this: 15m, 1h, 90s (default 0)."),
            OptionSpec("format", short: "f", value: "FORMAT", help: "table, csv or json (default table on a terminal, else csv)."),
        ],
        discussion: """
            Lists every other visit at the same venue whose interval, widened by --margin,
            meets the given visit's: from its entry to its exit, or for a visit without an
            exit to now, but never past its venue's max-stay (default: duplicate-time). An
            automatic exit counts as the visit's end. Columns as 'inside', plus the exit and
            meets (the id of the visit it overlaps). json is one array of objects. Each run is
            appended to the audit log ('qrcheckin-server audit'): who ran it, when, for which
            visit or device, how many rows.

            EXIT STATUS: 0 listed (also when nothing overlapped); 64 bad command line; 65 no
            such check-in, or the database is not a ledger; 66 the database does not exist;
            74 the output cannot be written, or the audit log cannot take the run's entry (a
            full disk: nothing listed); 77 permission denied; 78 a bad setting.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let venues: VenueDirectory
    let checkIn: Int64?
    let query: CheckInQuery
    let marginSeconds: Int64
    let format: VisitReport.Format?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        venues = try ServerConfiguration.venues(ledgerOptions.layers)
        format = try arguments.choice("format", as: VisitReport.Format.self)
        marginSeconds = try arguments["margin"].map { text throws(CommandError) in try ServerConfiguration.duration(text, .flag("margin")) } ?? 0
        query = try CheckInQueryOptions.query(arguments, now: SystemClock().now())
        switch (arguments["checkin"], query.device) {
        case (let id?, nil):
            guard arguments["from"] == nil, arguments["until"] == nil else { throw .usage("--from and --until go with --device") }
            guard let number = Int64(id), number > 0, id.first != "+" else { throw .usage("--checkin must be a check-in id (a receipt's number), got '\(id)'") }
            checkIn = number
        case (nil, _?):
            checkIn = nil
        default:
            throw .usage("give --checkin ID, or --device ID [--from TIME] [--until TIME]")
        }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
        // Audited before the answer is returned (`OverlapsLookup`): who met whom is not read without a trace.
        let overlaps = OverlapsLookup(trail: AuditTrail.shell(ledger, context, clock: clock), ledger: ledger, venues: venues)
        let now = clock.now()
        let chosen = format ?? (context.standardOutputIsTerminal ? .table : .csv)
        let detail = "format=\(chosen.rawValue)"
        var rows: [VisitReport.Row] = []
        if let checkIn {
            guard let found = try await ledgerCall({ () async throws(LedgerError) in try await overlaps.overlaps(of: checkIn, marginSeconds: marginSeconds, detail: detail) }) else {
                throw CommandError(.dataError, "no check-in \(checkIn) in the log")
            }
            rows = found.others.map { VisitReport.Row(visit: $0, meets: found.visit.id) }
        } else {
            let found = try await ledgerCall { () async throws(LedgerError) in
                try await overlaps.overlaps(ofDevice: query.device!, from: query.from, until: query.until, marginSeconds: marginSeconds, detail: detail)
            }
            for answer in found { rows += answer.others.map { VisitReport.Row(visit: $0, meets: answer.visit.id) } }
        }
        try context.output(VisitReport(format: chosen, overlaps: true, zone: SystemZone(), now: now).text(rows))
        return .success
    }
}
