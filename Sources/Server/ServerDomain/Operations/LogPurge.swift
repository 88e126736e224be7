import SharedDomain

/// Use case: deleting what the retention settings say is due (`purge`, the server's daily
/// retention). The audit log's own old entries go first, and this purge's entry (what is due:
/// check-ins, refused scans, audit entries, each with its retention) is appended after them in
/// the same transaction, so a purge never empties the log of its own trace. The check-ins and
/// refusals go after that commit (SQLite in batches that let check-ins in between): a purge
/// whose entry cannot be written deletes nothing.
public struct LogPurge: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// What the check-ins and refusals are deleted from once the entry committed.
    public let ledger: any ErasureLedger
    /// What is kept how long.
    public let policy: RetentionPolicy

    /// Purges of `ledger` by `trail`'s operator under `policy`.
    public init(trail: AuditTrail, ledger: any ErasureLedger, policy: RetentionPolicy) {
        self.trail = trail
        self.ledger = ledger
        self.policy = policy
    }

    /// What one purge did.
    public struct Result: Hashable, Sendable {
        /// The check-ins and refusals deleted.
        public let report: PurgeReport
        /// The audit entries deleted (older than the audit retention).
        public let auditEntries: Int
        /// The purge's own entry; nil when nothing was due and `always` was not asked.
        public let entry: AuditEntry?
    }

    /// Purges what `request` (not a dry run) and the audit retention select at `now`. `always`:
    /// an entry even when nothing was due (an operator's purge is an action; the server's daily
    /// one notes only purges that delete something).
    public func run(_ request: PurgeRequest, at now: WallTime, always: Bool) async throws(LedgerError) -> Result {
        precondition(!request.dryRun, "a dry run changes nothing and reads nobody's data: ask the ledger")
        let auditBefore = policy.auditCutoff(at: now)
        let policy = self.policy
        let (purged, entry) = try await trail.change(at: now, { transaction throws(LedgerError) -> (due: PurgeReport, audit: Int) in
            let due = try transaction.purgeDue(request)
            return (due, try transaction.purgeAudit(before: auditBefore))
        }, note: { due, audit in
            guard always || due.checkIns + due.refusals + audit > 0 else { return nil }
            return AuditNote(.purge, detail: "check-ins \(due.checkIns) (\(Self.period(policy.checkInSeconds))), refused scans \(due.refusals) "
                             + "(\(Self.period(policy.refusalSeconds))), audit entries \(audit) (\(Self.period(policy.auditSeconds)))",
                             rows: due.checkIns)
        })
        let report = try await ledger.purge(request)
        return Result(report: report, auditEntries: purged.1, entry: entry)
    }

    /// A retention as settings write it: `28d`, `36h`, `90m`, `45s` (the largest exact unit).
    static func period(_ seconds: Int64) -> String {
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds % size == 0 { return "\(seconds / size)\(unit)" }
        return "\(seconds)s"
    }
}
