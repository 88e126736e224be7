import SharedDomain

/// Use case: the visitor log handed to an operator (`checkins`, the console's export and its
/// log page), audited as `export`: the entry (what was selected, how many rows) is committed
/// before the first row leaves, and no more rows leave than it says (`AuditedExport`). A ledger
/// that cannot take the entry (a full disk) hands out nothing.
public struct VisitorLogExport: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail

    /// Exports by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
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
    public func begin(_ selection: Selection, subject: String? = nil, detail: String) throws(LedgerError) -> AuditedExport {
        let ledger = trail.ledger
        let rows: Int
        switch selection {
        case .query(let query):
            let selected = try ledger.count(query)
            rows = query.limit.map { min(selected, max(0, $0)) } ?? selected
        case .receipt(let id, let bounds):
            rows = try ledger.find(id: id).map { bounds.matches($0) ? 1 : 0 } ?? 0
        }
        let entry = try trail.record(AuditNote(.export, subject: subject, detail: detail, rows: rows))
        return AuditedExport(entry: entry, ledger: ledger, selection: selection)
    }

    /// A page of the log (the console's, a few dozen rows `read` returns), audited as an export
    /// of those rows before they are returned.
    public func page(subject: String? = nil, detail: String, _ read: () throws(LedgerError) -> [CheckIn]) throws(LedgerError) -> [CheckIn] {
        let rows = try read()
        try trail.record(AuditNote(.export, subject: subject, detail: detail, rows: rows.count))
        return rows
    }
}

/// An export whose audit entry is committed: its rows, at most as many as the entry says
/// (check-ins recorded since it was counted wait for the next export).
public struct AuditedExport: Sendable {
    /// The committed entry (its `rows`: how many were selected).
    public let entry: AuditEntry
    let ledger: any CheckInLedger
    let selection: VisitorLogExport.Selection

    /// Hands the rows to `body`, oldest first, at most `entry.rows`; `body` returns false to stop.
    public func rows(_ body: (CheckIn) -> Bool) throws(LedgerError) {
        let bound = entry.rows ?? 0
        switch selection {
        case .query(var query):
            query.limit = bound
            guard bound > 0 else { return }
            try ledger.export(query, body)
        case .receipt(let id, let bounds):
            if bound > 0, let checkIn = try ledger.find(id: id), bounds.matches(checkIn) { _ = body(checkIn) }
        }
    }
}
