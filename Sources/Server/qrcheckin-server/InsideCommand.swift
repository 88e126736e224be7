import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server inside`: the evacuation roll, every open visit. A read: it works while
/// the server runs and on a ledger that cannot be written (a full disk), because an evacuation
/// is not the time for an error.
struct InsideCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "inside",
        summary: "List who is inside now (every open visit): the evacuation roll.",
        options: LedgerCommandOptions.options() + [
            OptionSpec("venue", value: "VENUE", help: "Only this venue's visits."),
            OptionSpec("format", short: "f", value: "FORMAT", help: "table, csv or json (default table on a terminal, else csv)."),
        ],
        discussion: """
            Lists every visit that has an entry and no exit yet, oldest first: the receipt's id,
            the venue, the device (a pseudonymous id), the entry time (UTC and local), the
            minutes inside, the exit columns (empty here), the visitor's name and phone when
            the venue collects them, whether staff checked the visitor in, and the operator.
            A visit older than its venue's max-stay (default: duplicate-time) has ended and is
            not listed, even before the server's next pass records its automatic exit. json is
            one array of objects with the CSV's keys. The database is opened, never created,
            and only read: it works on a full disk. The run is noted in the audit log before the
            first visit is listed; when the log cannot take the entry (a full disk, a read-only
            ledger), a warning says so on stderr and the roll is listed all the same: the one
            exception to the audit rule, for an evacuation.

            EXIT STATUS: 0 listed (also when nobody is inside); 64 bad command line; 65 the
            database is not a ledger; 66 the database does not exist; 74 the output cannot be
            written; 77 permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let venues: VenueDirectory
    let venue: VenueID?
    let format: VisitReport.Format?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        venues = try ServerConfiguration.venues(ledgerOptions.layers)
        venue = try arguments["venue"].map { text throws(CommandError) in try ServerConfiguration.venue(text, .flag("venue")) }
        format = try arguments.choice("format", as: VisitReport.Format.self)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let ledger = try await ledgerOptions.openLedgerForReading(clock: clock) { why in
            context.logger.warning("the ledger cannot be opened for writing (\(why)); reading it read-only")
        }.ledger
        let now = clock.now()
        let chosen = format ?? (context.standardOutputIsTerminal ? .table : .csv)
        // Streamed as the rows are read: any number of visits in constant memory.
        let report = VisitReport(format: chosen, overlaps: false, zone: SystemZone(), now: now)
        var output = PageOutput()
        try output.append(report.header)
        // Audited before the first name leaves. An evacuation is not the time for an error: on a
        // ledger that cannot take the entry (a full disk, a read-only mount) the roll is listed
        // all the same, and the missing entry said on stderr (docs/PRIVACY.md).
        let logger = context.logger
        let roll = EvacuationRoll(trail: AuditTrail.shell(ledger, context, clock: clock), visits: ledger, venues: venues)
        _ = try await ledgerCall { () async throws(LedgerError) in
            try await roll.run(venue: venue, detail: "format=\(chosen.rawValue)", unaudited: .listAnyway(warn: { error in
                logger.warning("could not record the roll in the audit log (\(error.message)); listing it all the same")
            }), into: PageBytes(report), VisitReport.fold) { page throws(LedgerError) in output.take(&page) }
        }
        try output.finish(footer: report.footer)
        return .success
    }
}
