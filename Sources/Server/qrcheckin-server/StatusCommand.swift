import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server status`: the live counts door staff watch (today, the last hour, per
/// venue), read from the visitor log, and what the retention will delete next.
struct StatusCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show today's and the last hour's check-ins per venue, and the log's retention.",
        options: LedgerCommandOptions.options() + [
            OptionSpec("json", help: "Print the report as one JSON object."),
        ] + RetentionSettings.options,
        discussion: """
            Counts the check-ins since this host's midnight (TZ) and in the last hour, in all
            and per venue, from the visitor log itself: the numbers are the rows 'checkins'
            exports (several servers sharing one log agree), the same the server's /metrics
            reports as qrcheckin_server_checkins_today and _last_hour. Also prints how many
            check-ins the log holds, who is inside each venue and its capacity (as /metrics'
            qrcheckin_server_inside and _capacity), when the oldest was recorded and when the retention in
            force (the settings of 'serve') deletes it. The server need not be running.

            EXIT STATUS: 0 reported; 64 bad command line; 65 the database is not a ledger;
            66 the database does not exist (no check-ins recorded yet); 74 the output cannot
            be written; 77 permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let policy: RetentionPolicy
    let json: Bool
    /// The venues' settings (capacity, max-stay) for who is inside.
    let venues: VenueDirectory

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        policy = try RetentionSettings.policy(ledgerOptions.layers)
        json = arguments.has("json")
        venues = try ServerConfiguration.venues(ledgerOptions.layers)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let zone = SystemZone()
        let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
        let now = clock.now()
        let (counts, oldest) = try await ledgerCall { () async throws(LedgerError) in
            let counts = try await LiveCounts.read(from: ledger, at: now, dayStart: CalendarDay(containing: now, in: zone).midnight(in: zone))
                .withPresence(from: ledger, venues: venues)
            var oldest: WallTime?
            oldest = try await ledger.checkIns(CheckInQuery(limit: 1), after: nil).first?.time
            return (counts, oldest)
        }
        let report = ServerStatusReport(counts: counts, oldest: oldest, policy: policy, database: ledgerOptions.database.description, zone: zone)
        try context.output(json ? report.json : report.text)
        return .success
    }
}
