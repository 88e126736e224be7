import SharedDomain

/// Use case: a copy of the whole ledger (`qrcheckin-server backup`), audited as `backup`: a
/// backup hands every visitor's data to a file, so its entry (where to, how many check-ins)
/// is committed before the copy begins, as any read that hands personal data out (the copy
/// then holds its own entry). A ledger that cannot take the entry (a full disk) is not copied.
public struct LedgerBackup: Sendable {
    /// Whose actions, on which ledger.
    public let trail: AuditTrail
    /// The log counted for the entry.
    public let log: any VisitLog

    /// Backups of `log` by `trail`'s operator.
    public init(trail: AuditTrail, log: any VisitLog) {
        self.trail = trail
        self.log = log
    }

    /// Commits the entry for a copy of the ledger to `destination` (`how`: the method, as the
    /// entry's detail says it), then runs `copy` and returns its value.
    public func run<T>(destination: String, how: String, _ copy: () async throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let rows = try await log.count(CheckInQuery())
        try await trail.record(AuditNote(.backup, subject: "file \(destination)", detail: how, rows: rows))
        return try await copy()
    }
}
