import SharedDomain

/// Use case: the visitor log handed to an operator (`checkins`, the console's export and its
/// log page), audited as `export`: the entry (what was selected, how many rows) is committed
/// before the first row leaves, and no more rows leave than it says (`AuditedExport`). A ledger
/// that cannot take the entry (a full disk) hands out nothing.
public struct VisitorLogExport: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// The log the rows come from.
    public let log: any VisitLog & VisitLedger

    /// Exports of `log` by `trail`'s operator.
    public init(trail: AuditTrail, log: any VisitLog & VisitLedger) {
        self.trail = trail
        self.log = log
    }

    /// Which check-ins an export hands out.
    public enum Selection: Hashable, Sendable {
        /// What the query selects (its limit included), oldest first.
        case query(CheckInQuery)
        /// The one check-in of this receipt number, if it is recorded and the query's bounds
        /// (venue, time) hold for it: a receipt number is looked up alone, within the rest of a filter.
        case receipt(Int64, within: CheckInQuery)
    }

    /// Counts what `selection` selects now and commits the entry for that many rows (`subject`,
    /// `detail`: the filter and format, as the entry should say them); returns the export,
    /// the only way to the rows.
    public func begin(_ selection: Selection, subject: String? = nil, detail: String) async throws(LedgerError) -> AuditedExport {
        let rows: Int
        switch selection {
        case .query(let query):
            let selected = try await log.count(query)
            rows = query.limit.map { min(selected, max(0, $0)) } ?? selected
        case .receipt(let id, let bounds):
            rows = try await log.find(id: id).map { bounds.matches($0) ? 1 : 0 } ?? 0
        }
        let entry = try await trail.record(AuditNote(.export, subject: subject, detail: detail, rows: rows))
        return AuditedExport(entry: entry, log: log, selection: selection)
    }

    /// A page of the log (the console's, a few dozen rows `read` returns), audited as an export
    /// of those rows before they are returned.
    public func page(subject: String? = nil, detail: String,
                     _ read: (any VisitLog & VisitLedger) async throws(LedgerError) -> [CheckIn]) async throws(LedgerError) -> [CheckIn] {
        let rows = try await read(log)
        try await trail.record(AuditNote(.export, subject: subject, detail: detail, rows: rows.count))
        return rows
    }
}

/// An export whose audit entry is committed: its rows, at most as many as the entry says
/// (check-ins recorded since it was counted wait for the next export).
public struct AuditedExport: Sendable {
    /// The committed entry (its `rows`: how many were selected).
    public let entry: AuditEntry
    let log: any VisitLog & VisitLedger
    let selection: VisitorLogExport.Selection

    /// Hands the rows to `body`, oldest first, at most `entry.rows`, read a page at a time;
    /// `body` returns false to stop.
    public func rows(_ body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) {
        let bound = entry.rows ?? 0
        guard bound > 0 else { return }
        switch selection {
        case .query(var query):
            query.limit = bound
            try await log.eachCheckIn(query, body)
        case .receipt(let id, let bounds):
            if let checkIn = try await log.find(id: id), bounds.matches(checkIn) { _ = try await body(checkIn) }
        }
    }

    /// The same rows folded into `value` by `fold` a page at a time where the ledger reads
    /// them (an export's bytes: `VisitLog.eachPage`); after each page `body` takes the value
    /// and returns false to stop; returns the value as the last page left it.
    @discardableResult
    public func pages<Value: Sendable>(into value: consuming Value, _ fold: @escaping CheckInFold<Value>,
                                       _ body: (inout Value) async throws(LedgerError) -> Bool) async throws(LedgerError) -> Value {
        let bound = entry.rows ?? 0
        guard bound > 0 else { return value }
        switch selection {
        case .query(var query):
            query.limit = bound
            return try await log.eachPage(query, into: consume value, fold, body)
        case .receipt(let id, let bounds):
            guard let checkIn = try await log.find(id: id), bounds.matches(checkIn) else { return value }
            var page = FoldedPage([checkIn], into: value, fold).value
            _ = try await body(&page)
            return page
        }
    }
}
