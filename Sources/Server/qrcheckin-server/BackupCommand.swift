import ServerDomain
import ServerReports
import ServerSQLite
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem
import SharedText

/// `qrcheckin-server backup`: a consistent copy of a running SQLite ledger (SQLite's online
/// backup API), checked before it says done; `--verify` checks a copy. PostgreSQL is refused
/// with the way that works there (pg_dump, point-in-time recovery).
struct BackupCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "backup",
        summary: "Copy the running SQLite ledger to a new file, checked; or check a copy (--verify).",
        operands: [.oneOf([.option("to"), .option("verify")])],
        options: LedgerCommandOptions.options(database: "sqlite:PATH, the ledger copied (default: as 'serve').") + [
            OptionSpec("to", value: "FILE", help: "Write the copy to FILE (a new file, mode 0600)."),
            OptionSpec("force", help: "With --to: replace FILE if it exists (a regular file only)."),
            OptionSpec("verify", value: "FILE", help: "Check the copy FILE (integrity, a ledger of a schema this program reads) and say what it holds."),
        ],
        discussion: """
            Copies the ledger while the server runs and check-ins go on: every page in one
            read of the database (SQLite's online backup API), so the copy is the ledger as it
            was at one moment, holding every check-in acknowledged before the backup began.
            The copy is made beside FILE, checked with PRAGMA integrity_check, synced, and only
            then named FILE: a failed backup leaves nothing. It is one file (no -wal beside
            it), mode 0600 whatever the umask: it holds the visitor log. An existing FILE is
            never written over unless --force says so. The backup is written to the audit
            log (backup: the file, how many check-ins) before the copy begins, as any read
            that hands out visitors' data.

            To restore: stop the server, copy the backup over the database file (keeping its
            owner and mode 0600; remove a stale -wal and -shm beside it), start the server
            (docs/SERVER.md, "Backup and restore"). A PostgreSQL ledger is backed up with
            pg_dump or the server's continuous archiving (point-in-time recovery): this
            command refuses it.

            EXIT STATUS: 0 copied (or checked) and the integrity check passed; 64 bad command
            line; 65 the copy or FILE failed its check, or is not a ledger; 66 the database or
            FILE does not exist; 69 the ledger is PostgreSQL; 73 FILE exists (without --force),
            or cannot be created; 74 the disk is full; 77 permission denied; 78 a bad setting,
            or a ledger of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let destination: String?
    let verified: String?
    let force: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        destination = arguments["to"]
        verified = arguments["verify"]
        force = arguments.has("force")
        guard (destination == nil) != (verified == nil) else { throw .usage("give one of --to FILE (make a backup) or --verify FILE (check one)") }
        if force && destination == nil { throw .usage("--force goes with --to") }
        if let file = destination ?? verified, file.isEmpty { throw .usage("FILE must not be empty") }
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        if let verified {
            // The command's only work: it may block its thread (no ledger, no pool opened).
            let report = try await ledgerCall { () async throws(LedgerError) in try SQLiteBackup.verify(verified) }
            try context.output(Self.describe(report, verb: "checked"))
            return .success
        }
        guard case .sqlite = ledgerOptions.database, let destination else {
            throw CommandError(.unavailable, "\(ledgerOptions.database.description): backup copies a SQLite ledger only; back up PostgreSQL "
                               + "with pg_dump (pg_dump -Fc DATABASE > FILE) or continuous archiving for point-in-time recovery "
                               + "(docs/SERVER.md, \"Backup and restore\")")
        }
        // The destination is checked before anything is read or audited: a taken name copies nothing.
        let target = try await ledgerCall { () async throws(LedgerError) in try BackupTarget(destination, replacing: force) }
        let clock = SystemClock()
        let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
        guard let sqlite = ledger as? SQLiteLedger else { throw CommandError(.software, "the ledger opened is not SQLite's") }
        let backup = LedgerBackup(trail: .shell(ledger, context, clock: clock), log: ledger)
        let report = try await ledgerCall { () async throws(LedgerError) in
            try await backup.run(destination: destination, how: "sqlite online backup") { () async throws(LedgerError) in
                try await SQLiteBackup.copy(sqlite, to: target)
            }
        }
        try context.output(Self.describe(report, verb: "backed up to"))
        return .success
    }

    /// `backed up to FILE: integrity ok, schema version 10, 1234 check-ins (newest …), 5.2 MB`.
    static func describe(_ report: BackupReport, verb: String) -> String {
        let newest = report.newest.map { " (newest \(UTCTime.iso8601($0.seconds)))" } ?? ""
        let megabytes = Double(report.bytes) / 1_000_000
        let size = megabytes >= 10 ? "\(Int(megabytes.rounded())) MB" : "\(Double(Int(megabytes * 10)) / 10) MB"
        return "\(verb) \(report.path): integrity ok, schema version \(report.schemaVersion), \(report.checkIns) check-ins\(newest), \(size)\n"
    }
}
