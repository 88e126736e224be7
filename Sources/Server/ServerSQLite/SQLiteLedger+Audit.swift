import ServerDomain
import ServerLedgerSQL
import SharedDomain

extension SQLiteLedger {
    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try writer.perform { [sql] connection throws(LedgerError) in try sql.appendAudit(entry, on: SQLiteSession(connection)) }
    }

    public func audit(_ query: AuditQuery, _ body: (AuditEntry) -> Bool) throws(LedgerError) {
        try read { session throws(LedgerError) in try sql.audit(query, on: session, body) }
    }

    public func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try writer.perform { [sql] connection throws(LedgerError) in try sql.delete(.audit, before: cutoff, dryRun: false, on: SQLiteSession(connection)) }
    }
}
