/// Port: the audit log as it is read, newest first. Entries are written only inside an
/// operator action's transaction (`LedgerTransaction.appendAudit`, through `AuditTrail`) and
/// deleted only by the retention's (`LedgerTransaction.purgeAudit`): no port appends or deletes
/// one on its own, so no action can write its entry apart from its work. Every engine
/// implements it and passes `AuditLogContract`.
public protocol AuditLog: Sendable {
    /// The entries `query` selects, newest first (by id), at most `query.limit`: a page (the
    /// next one begins `before` the last id).
    func audit(_ query: AuditQuery) async throws(LedgerError) -> [AuditEntry]
}

extension AuditLog {
    /// Every entry `query` selects (at most its limit), newest first, read a page at a time and
    /// handed to `body` until it returns false.
    public func eachEntry(_ query: AuditQuery, pageSize: Int = LogPosition.pageSize,
                          _ body: (AuditEntry) async throws(LedgerError) -> Bool) async throws(LedgerError) {
        var left = query.limit.map { max(0, $0) } ?? Int.max
        var page = query
        while left > 0 {
            page.limit = min(left, pageSize)
            let entries = try await audit(page)
            for entry in entries where !(try await body(entry)) { return }
            left -= entries.count
            guard entries.count == page.limit, let last = entries.last?.id else { return }
            page.before = last
        }
    }
}
