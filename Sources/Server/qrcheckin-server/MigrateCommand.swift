import ServerDomain
import ServerLedgerSQL
import ServerPostgres
import SharedAsync
import SharedCLI
import SharedSystem

/// `qrcheckin-server migrate`: brings the ledger's schema to this version's, without serving.
struct MigrateCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "migrate",
        summary: "Bring the database's schema up to this version's, then exit.",
        options: LedgerCommandOptions.options(),
        discussion: """
            Applies the schema steps the database lacks, in one transaction, and prints the
            versions before and after. 'serve' does the same when it starts; run migrate first
            when the database user the servers connect as may not change the schema, or to
            upgrade a shared PostgreSQL before the servers. Several servers or migrate runs at
            once are safe: on PostgreSQL they take turns on an advisory lock, and the first
            applies the steps. A database of a newer version, or one that holds another
            program's tables, is left alone. A missing SQLite file is created (mode 0600).

            EXIT STATUS: 0 up to date; 64 bad command line; 65 the database holds another
            program's tables or is damaged; 69 PostgreSQL cannot be reached; 73 the database
            cannot be created; 77 permission denied; 78 a bad setting, or a schema newer than
            this program.
            """
    )

    let ledgerOptions: LedgerCommandOptions

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let latest = LedgerSchema.latestVersion
        let database = ledgerOptions.database
        switch database {
        case .postgresql(let connection):
            let versions: (from: Int, to: Int)
            let pool = try LedgerOpener.blockingPool(threads: 1)
            do throws(LedgerError) {
                versions = try await PostgresLedger.migrate(connection, clock: SystemClock(), blocking: pool)
            } catch {
                throw CommandError(error)
            }
            try context.output(versions.from == versions.to
                ? "\(database.description): at schema version \(latest), nothing to do\n"
                : "\(database.description): schema version \(versions.from) → \(versions.to)\n")
        case .sqlite:
            // SQLite applies the missing steps whenever a ledger is opened.
            _ = try await ledgerOptions.openLedger(create: true)
            try context.output("\(database.description): at schema version \(latest)\n")
        }
        return .success
    }
}
