import ServerDomain
import ServerLedgerSQL
import SharedDomain

extension PostgresLedger {
    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try pool.withConnection { connection throws(LedgerError) in try Self.appendAudit(entry, connection) }
    }

    /// Inserts `entry` on `connection` (in its transaction, if one is open); returns it with its id.
    static func appendAudit(_ entry: AuditEntry, _ connection: PostgresConnection) throws(LedgerError) -> AuditEntry {
        let inserted = try connection.query(LedgerSchema.insertAudit, [
            .int64(entry.time.milliseconds), .text(entry.actor), .text(entry.action.rawValue), .text(entry.subject),
            .text(entry.detail), .int64(entry.rows.map(Int64.init)), .text(entry.source),
        ])
        guard inserted.rowCount == 1, let id = try inserted.int64(0, 0) else {
            throw LedgerError(.failed, "\(connection.target): the audit insert returned no id")
        }
        return AuditEntry(id: id, time: entry.time, actor: entry.actor, action: entry.action, subject: entry.subject,
                          detail: entry.detail, rows: entry.rows, source: entry.source)
    }

    public func audit(_ query: AuditQuery, _ body: (AuditEntry) -> Bool) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.stream(LedgerSchema.selectAudit, [.int64(query.from?.milliseconds), .int64(query.until?.milliseconds),
                                                            .int64(query.before), .int64(Int64(query.limit ?? Int(Int32.max)))]) { row throws(LedgerError) in
                guard let id = try row.int64(0, 0), let at = try row.int64(0, 1), let actor = row.text(0, 2),
                      let action = row.text(0, 3).flatMap(AuditAction.init(rawValue:)) else {
                    throw LedgerError(.corrupt, "\(connection.target): an audit entry no ledger writes")
                }
                return body(AuditEntry(id: id, time: WallTime(milliseconds: at), actor: actor, action: action, subject: row.text(0, 4),
                                       detail: row.text(0, 5), rows: try row.int64(0, 6).map(Int.init), source: row.text(0, 7)))
            }
        }
    }

    public func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try pool.withConnection { connection throws(LedgerError) in try Self.delete("audit", before: cutoff, dryRun: false, connection) }
    }
}
