import ServerDomain
import ServerLedgerSQL
import SharedDomain

extension SQLiteLedger {
    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try writer.perform { connection throws(LedgerError) in try Self.appendAudit(entry, connection) }
    }

    /// Inserts `entry` inside the open transaction; returns it with its id.
    static func appendAudit(_ entry: AuditEntry, _ connection: SQLiteConnection) throws(LedgerError) -> AuditEntry {
        let insert = try connection.statement(Self.insertAudit)
        defer { insert.reset() }
        try insert.bind(1, entry.time.milliseconds)
        try insert.bind(2, entry.actor)
        try insert.bind(3, entry.action.rawValue)
        try insert.bind(4, entry.subject)
        try insert.bind(5, entry.detail)
        try insert.bind(6, entry.rows.map(Int64.init))
        try insert.bind(7, entry.source)
        guard try insert.step(), let id = insert.int64(0) else { throw LedgerError(.failed, "\(connection.path): the audit insert returned no id") }
        return AuditEntry(id: id, time: entry.time, actor: entry.actor, action: entry.action, subject: entry.subject,
                          detail: entry.detail, rows: entry.rows, source: entry.source)
    }

    public func audit(_ query: AuditQuery, _ body: (AuditEntry) -> Bool) throws(LedgerError) {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.selectAudit)
            defer { select.reset() }
            try select.bind(1, query.from?.milliseconds)
            try select.bind(2, query.until?.milliseconds)
            try select.bind(3, query.before)
            try select.bind(4, Int64(query.limit ?? Int(Int32.max)))
            while try select.step() {
                guard let id = select.int64(0), let at = select.int64(1), let actor = select.text(2),
                      let action = select.text(3).flatMap(AuditAction.init(rawValue:)) else {
                    throw LedgerError(.corrupt, "\(connection.path): an audit entry no ledger writes")
                }
                let entry = AuditEntry(id: id, time: WallTime(milliseconds: at), actor: actor, action: action, subject: select.text(4),
                                       detail: select.text(5), rows: select.int64(6).map(Int.init), source: select.text(7))
                guard body(entry) else { break }
            }
        }
    }

    public func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try writer.perform { connection throws(LedgerError) in try Self.delete("audit", before: cutoff, dryRun: false, connection) }
    }

    private static let insertAudit = SQLDialect.sqlite.render(LedgerSchema.insertAudit)
    private static let selectAudit = SQLDialect.sqlite.render(LedgerSchema.selectAudit)
}
