import ServerDomain
import SharedDomain

/// The log as operators read it: exports, counts, tallies, kept counts, devices by prefix.
extension SQLLedger {
    /// The check-ins `query` selects, oldest first (by time, then id), after `position`, at most
    /// `query.limit`: a page of the log.
    public func checkIns(_ query: CheckInQuery, after position: LogPosition?, on session: any SQLSession) throws(LedgerError) -> [CheckIn] {
        var rows: [CheckIn] = []
        try checkIns(query, after: position, on: session) { row in rows.append(row) }
        return rows
    }

    /// The same page, each check-in handed to `each` as its row is read (an export folds it
    /// into bytes there: `FoldedPage`).
    public func checkIns(_ query: CheckInQuery, after position: LogPosition?, on session: any SQLSession,
                         _ each: (CheckIn) -> Void) throws(LedgerError) {
        let after = try position.map { position throws(LedgerError) in try row(of: position) }
        let selection = CheckInSelection(query, columns: LedgerSchema.checkInColumns, ordered: true, dialect: session.dialect, after: after)
        try session.checkIns(selection.sql, selection.values, ids: ids, each)
    }

    /// How many check-ins `query` selects (its limit ignored).
    public func count(_ query: CheckInQuery, on session: any SQLSession) throws(LedgerError) -> Int {
        var unlimited = query
        unlimited.limit = nil
        let selection = CheckInSelection(unlimited, columns: "count(*)", ordered: false, dialect: session.dialect)
        return try session.count(selection.sql, selection.values)
    }

    /// The check-ins `query` selects (its limit ignored), counted per venue and quarter hour.
    public func tally(_ query: CheckInQuery, on session: any SQLSession) throws(LedgerError) -> [CheckInTally] {
        var unlimited = query
        unlimited.limit = nil
        let selection = CheckInSelection(unlimited, columns: "venue, \(LedgerSchema.quarterOfRow), count(*)", ordered: false,
                                         dialect: session.dialect, suffix: " GROUP BY 1, 2")
        return try session.all(selection.sql, selection.values) { row throws(LedgerError) in
            guard let quarter = try row.integer(1) else { throw LedgerError(.corrupt, "\(session.target): a check-in has no time") }
            return CheckInTally(venue: try LedgerRows.venue(row, 0, session.target),
                                quarter: WallTime(milliseconds: quarter * CheckInTally.quarterMilliseconds), count: Int(try row.integer(2) ?? 0))
        }
    }

    /// The visits `query` selects, counted per venue, entry bucket and exit bucket (`VisitFlowLog`).
    public func visitFlow(_ query: VisitFlowQuery, on session: any SQLSession) throws(LedgerError) -> [VisitFlow] {
        try session.all(LedgerStatements.visitFlow, [.integer(query.origin.milliseconds), .integer(query.since.milliseconds),
                                                     .integer(query.until.milliseconds), .integer(query.bucketMilliseconds)]) { row throws(LedgerError) in
            guard let entered = try row.integer(1) else { throw LedgerError(.corrupt, "\(session.target): a check-in has no time") }
            return VisitFlow(venue: try LedgerRows.venue(row, 0, session.target), entered: Int(entered), exited: try row.integer(2).map { Int($0) },
                             count: Int(try row.integer(3) ?? 0))
        }
    }

    /// The daily counts purges kept (of `venue`, or of every venue).
    public func keptCounts(venue: VenueID?, on session: any SQLSession) throws(LedgerError) -> [DailyCount] {
        try session.all(LedgerStatements.selectKeptCounts, [.text(venue?.rawValue)]) { row throws(LedgerError) in
            guard let day = try row.integer(1) else { throw LedgerError(.corrupt, "\(session.target): a kept count has no day") }
            return DailyCount(venue: try LedgerRows.venue(row, 0, session.target), day: CalendarDay(daysSince1970: day),
                              count: Int(try row.integer(2) ?? 0))
        }
    }

    /// The devices with check-ins whose id begins with `prefix`, at most `limit`.
    public func devices(prefixed prefix: String, limit: Int, on session: any SQLSession) throws(LedgerError) -> [DeviceID] {
        try session.all(LedgerStatements.devicesPrefixed, [.text(prefix), .integer(Int64(limit))]) { row throws(LedgerError) in
            guard let device = row.text(0).flatMap(DeviceID.init) else { throw LedgerError(.corrupt, "a check-in has a malformed device id") }
            return device
        }
    }
}
