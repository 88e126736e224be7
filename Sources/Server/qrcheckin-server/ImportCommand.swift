import ServerDomain
import ServerPostgres
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server import`: copies a SQLite ledger's check-ins into the PostgreSQL ledger.
struct ImportCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "Copy the check-ins of a SQLite ledger into PostgreSQL (moving up to many servers).",
        operands: [.option("from")],
        options: LedgerCommandOptions.options(database: "The PostgreSQL ledger to copy into: postgresql://… (default: as 'serve').") + [
            OptionSpec("from", value: "sqlite:PATH", help: "The SQLite ledger to copy from (required)."),
            OptionSpec("venue", value: "VENUE", help: "Only this venue's check-ins (default every venue's)."),
        ],
        discussion: """
            For a venue that outgrew one host: copies the check-ins of the SQLite ledger --from
            (every column: time, method, device, visitor fields, operator) into the PostgreSQL
            ledger --database, in one transaction, and the duplicate keys with them (a phone that
            checked in on the old host an hour ago is 'already checked in' on the new one).
            Idempotent: a check-in already copied is not copied again, so an interrupted or
            repeated import is safe, and check-ins the servers recorded in PostgreSQL meanwhile
            are kept. Checks the counts: unless every check-in of the source is in PostgreSQL
            afterwards, nothing is committed. Stop the server writing to the SQLite file first
            (a check-in recorded there during the copy makes the counts disagree). Refusals
            (kept a week, no visitor data) are not copied. Check-ins keep their ids (a receipt's
            number still opens and erases its check-in) and their times. The copy is written
            to PostgreSQL's audit log in its own transaction (who, from where, how many).

            EXIT STATUS: 0 copied; 64 bad command line (--database not PostgreSQL, --from not
            SQLite); 65 a database is not a ledger; 66 the SQLite file does not exist; 69
            PostgreSQL cannot be reached; 70 the counts disagree (nothing copied); 77 permission
            denied; 78 a bad setting, or a schema newer than this program.
            """
    )

    let destination: PostgresConnectionString
    let source: DatabaseLocation
    let venue: VenueID?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        // Without a database setting the location is the standard SQLite file: refused alike.
        guard case .postgresql(let connection) = try LedgerCommandOptions(arguments, environment: context.environment).database else {
            throw .usage("import copies into PostgreSQL: set --database postgresql://… (or database in the config file)")
        }
        destination = connection
        guard let from = arguments["from"] else { throw .usage("import needs --from sqlite:PATH, the ledger to copy from") }
        source = try DatabaseLocation.parse(from, from: .flag("from"))
        guard case .sqlite = source else { throw .usage("--from must be sqlite:PATH") }
        venue = try arguments["venue"].map { text throws(CommandError) in try ServerConfiguration.venue(text, .flag("venue")) }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let from = try await LedgerOpener.open(source, create: false, clock: clock).ledger
        let report: LedgerCopyReport
        let pool = try LedgerOpener.blockingPool(threads: 1)
        do throws(LedgerError) {
            // Every check-in of the source, visitor fields and all, moves: audited in the copy's
            // own transaction (`import`), so a copy the log cannot take is not committed.
            let ledger = try await PostgresLedger.open(destination, poolSize: 1, clock: clock, blocking: pool)
            let trail = AuditTrail.shell(ledger, context, clock: clock)
            let now = clock.now()
            let origin = source.description
            report = try await ledger.copy(from: from, venue: venue) { report in
                trail.entry(AuditNote(.import, subject: venue.map { "venue \($0)" }, detail: "from \(origin): source \(report.source), "
                                      + "copied \(report.copied), already there \(report.alreadyThere)", rows: report.copied), at: now)
            }
        } catch {
            throw CommandError(error)
        }
        let scope = venue.map { "\($0.rawValue)'s" } ?? "every venue's"
        try context.output("""
            \(scope) check-ins from \(source.description) into postgresql: \(destination.description)
            source \(report.source), copied \(report.copied), already there \(report.alreadyThere); PostgreSQL now holds \(report.destination)

            """)
        if report.renumbered > 0 {
            // Two keys gave one id: the copy shows a new one, and its receipt no longer finds it.
            try context.output("\(report.renumbered) of them got new ids (another check-in already showed theirs)\n")
        }
        return .success
    }
}
