import ServerDomain
import ServerReports
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// `qrcheckin-server purge`: deletes now what the retention settings say is due (the server
/// does the same at start and daily); `--dry-run` says what would go and changes nothing.
struct PurgeCommand: AsyncCommand {
    static let spec = CommandSpec(
        name: "purge",
        summary: "Delete check-ins and refused scans older than the retention (or show what would go).",
        options: LedgerCommandOptions.options() + RetentionSettings.options + [
            OptionSpec("dry-run", short: "n", help: "Count what would be deleted; delete nothing."),
        ],
        discussion: """
            Deletes the check-ins recorded more than retention ago (their device ids and
            visitor fields with them) and the refused scans older than refusal-retention, as
            the server does at start and once a day; the settings come from the same config
            files and variables as 'serve'. With keep-counts, each venue's number of check-ins
            per day (this host's days) is kept before the rows go; it holds no personal data.
            Deletion is real: SQLite overwrites the deleted rows (secure_delete), hands their
            pages back (incremental vacuum) and truncates its write-ahead log, so the file
            shrinks. --dry-run prints what would be deleted and changes nothing at all.

            Audit entries older than audit-retention go too, and the purge leaves an entry of
            its own in the audit log (what was due), written after them in the same
            transaction and before anything else is deleted: a purge the log cannot take (a
            full disk) deletes nothing.

            EXIT STATUS: 0 done (also when nothing was due); 64 bad command line; 65 the
            database is not a ledger; 66 the database does not exist; 74 the disk is full (the
            audit log cannot take the purge's entry: nothing deleted); 75
            the database stayed locked; 77 permission denied; 78 a bad setting, or a ledger
            of a newer version.
            """
    )

    let ledgerOptions: LedgerCommandOptions
    let policy: RetentionPolicy
    let dryRun: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        ledgerOptions = try LedgerCommandOptions(arguments, environment: context.environment)
        policy = try RetentionSettings.policy(ledgerOptions.layers)
        dryRun = arguments.has("dry-run")
    }

    func run(_ context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        let zone = SystemZone()
        let ledger = try await ledgerOptions.openLedger(clock: clock).ledger
        let now = clock.now()
        let request = policy.purgeRequest(at: now, dayOffsetSeconds: zone.offsetSeconds(at: now), dryRun: dryRun)
        guard !dryRun else {
            // Counts only: it changes nothing and hands out nobody's data, so it is not audited.
            let report = try await ledgerCall { () async throws(LedgerError) in try await ledger.purge(request) }
            try context.output(PurgeSummary(request: request, report: report, policy: policy, zone: zone).text + "\n")
            return .success
        }
        // The audit log's old entries go with this purge's own entry after them, in one
        // transaction, before anything else is deleted (`LogPurge`): no purge empties the log
        // of its own trace, and one the log cannot take (a full disk) deletes nothing.
        let purged = try await ledgerCall { () async throws(LedgerError) in
            try await LogPurge(trail: AuditTrail.shell(ledger, context, clock: clock), ledger: ledger, policy: policy).run(request, at: now, always: true)
        }
        var summary = PurgeSummary(request: request, report: purged.report, policy: policy, zone: zone).text
        let audit = purged.auditEntries
        if audit > 0 { summary += "; deleted \(audit) audit entr\(audit == 1 ? "y" : "ies") older than \(PeriodText.of(policy.auditSeconds))" }
        try context.output(summary + "\n")
        return .success
    }
}

/// What a purge did (or would do), in one sentence, for `purge` and the server's log. Counts
/// and cutoffs only: never a visitor's data.
struct PurgeSummary {
    let request: PurgeRequest
    let report: PurgeReport
    let policy: RetentionPolicy
    let zone: any LocalTimeZone

    var text: String {
        let verb = request.dryRun ? "would delete" : "deleted"
        let checkIns = "\(report.checkIns) check-in\(report.checkIns == 1 ? "" : "s") recorded before \(Self.moment(request.checkInsBefore, zone))"
            + " (retention \(PeriodText.of(policy.checkInSeconds)))"
        let refusals = "\(report.refusals) refused scan\(report.refusals == 1 ? "" : "s") before \(Self.moment(request.refusalsBefore, zone))"
            + " (\(PeriodText.of(policy.refusalSeconds)))"
        let counts = !request.keepsCounts || report.checkIns == 0 ? ""
            : request.dryRun ? "; their daily counts per venue would be kept" : "; kept their daily counts per venue"
        return "\(verb) \(checkIns) and \(refusals)\(counts)"
    }

    /// `2026-11-02 18:00:00 +09:00`.
    static func moment(_ time: WallTime, _ zone: any LocalTimeZone) -> String {
        let local = LocalTime(time, in: zone)
        return "\(local.date) \(local.second) \(local.offset)"
    }
}
