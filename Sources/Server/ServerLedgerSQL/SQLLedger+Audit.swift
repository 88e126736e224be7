import ServerDomain
import SharedDomain

/// The audit log: appended inside an operator action's transaction, read newest first.
extension SQLLedger {
    /// Inserts `entry`; returns it with its id.
    public func appendAudit(_ entry: AuditEntry, on session: any SQLSession) throws(LedgerError) -> AuditEntry {
        let id = try session.first(LedgerStatements.insertAudit, [
            .integer(entry.time.milliseconds), .text(entry.actor), .text(entry.action.rawValue), .text(entry.subject),
            .text(entry.detail), .integer(entry.rows.map(Int64.init)), .text(entry.source),
        ]) { row throws(LedgerError) in try row.integer(0) }
        guard let id = id ?? nil else { throw LedgerError(.failed, "\(session.target): the audit insert returned no id") }
        return AuditEntry(id: id, time: entry.time, actor: entry.actor, action: entry.action, subject: entry.subject,
                          detail: entry.detail, rows: entry.rows, source: entry.source)
    }

    /// The entries `query` selects, newest first, at most `query.limit`: a page.
    public func audit(_ query: AuditQuery, on session: any SQLSession) throws(LedgerError) -> [AuditEntry] {
        try session.all(LedgerStatements.selectAudit, [
            .integer(query.from?.milliseconds), .integer(query.until?.milliseconds), .integer(query.before),
            .integer(Int64(query.limit ?? Int(Int32.max))),
        ]) { row throws(LedgerError) in try LedgerRows.auditEntry(row, session.target) }
    }
}
