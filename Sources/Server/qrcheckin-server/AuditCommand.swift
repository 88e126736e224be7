import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server audit`: who exported, erased, queried or changed what in the visitor log,
/// newest first, as a table, CSV or JSON lines.
struct AuditCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "audit",
        summary: "List the audit log: who exported, erased, queried or changed what, newest first.",
        options: LedgerCommandOptions.options() + [
            OptionSpec("format", short: "f", value: "FORMAT", help: "table, csv or jsonl (default table on a terminal, else csv)."),
            OptionSpec("from", value: "TIME", help: "Only entries at or after TIME: Unix seconds, @UNIX, ISO 8601 with a zone, or now."),
            OptionSpec("until", value: "TIME", help: "Only entries before TIME (same forms)."),
            OptionSpec("limit", value: "N", help: "At most N, the newest first."),
        ],
        discussion: """
            Prints the audit log, newest first: every export of the visitor log (its filter
            and row count), erasure, overlap query, list of who is inside, staff check-in and
            check-out, admission past a venue's capacity, console sign-in (and failed one) and
            account change, with who did it (a console account, or the user at the shell, as
            sudo tells), when, and from where. Columns: id, time (UTC), local_time (this host's
            zone), actor, action, subject, detail, rows and source. The log is append-only:
            nothing changes an entry, and only its own retention (audit-retention, a year by
            default) deletes one, daily with the rest (see docs/PRIVACY.md). Listing it is not
            itself recorded. The database is opened, never created.

            EXIT STATUS: 0 listed; 64 bad command line; 65 the database is not a ledger or is
            damaged; 66 the database does not exist; 74 the output cannot be written; 77
            permission denied; 78 a bad setting, or a ledger of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let format: CheckInExport.Format?
    let query: AuditQuery

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        format = try arguments.choice("format", as: CheckInExport.Format.self)
        let bounds = try CheckInQueryOptions.query(arguments, now: SystemClock().now())
        query = AuditQuery(from: bounds.from, until: bounds.until, limit: try arguments.integer("limit", in: 0...Int.max))
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let ledger = try await ledgerOptions.openLedger().ledger
        var export = AuditExport(format: format ?? (context.standardOutputIsTerminal ? .table : .csv), zone: SystemZone())
        var output = CheckedOutput()
        var failure: CommandError?
        try output.append(export.header)
        try await ledgerCall { () async throws(LedgerError) in
            try await ledger.eachEntry(query) { entry throws(LedgerError) in
                do throws(CommandError) {
                    try output.append { export.write(entry, to: &$0) }
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        if let failure { throw failure }
        try output.flush()
        return .success
    }
}
