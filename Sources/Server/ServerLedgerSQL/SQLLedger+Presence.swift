import ServerDomain
import SharedDomain

/// Exits, open visits, occupancy and overlaps (issue 32). An exit is the visit's conditional
/// update (`exit_ms IS NULL`: two servers ending one visit record one exit) and the release of
/// its device's duplicate key, in one transaction the engine opened.
extension SQLLedger {
    /// Records the exits `request` selects (`CheckInLedger.checkOut`).
    public func checkOut(_ request: CheckOutRequest, on session: any SQLSession) throws(LedgerError) -> CheckOutReport {
        let row: Int64
        switch request.target {
        case .checkIn(let id):
            guard let found = ids.rowID(shown: id) else { return CheckOutReport(closed: 0, visit: nil) }
            row = found
        case .device(let device, let venue):
            guard let found = try session.first(LedgerStatements.latestVisit, [.text(device.rawValue), .text(venue.rawValue)],
                                                { row throws(LedgerError) in try row.integer(0) }) ?? nil else {
                return CheckOutReport(closed: 0, visit: nil)
            }
            row = found
        case .venue(let venue):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: Int64.max, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, on: session), visit: nil)
        case .enteredBefore(let venue, let cutoff):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: cutoff.milliseconds, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, on: session), visit: nil)
        case .overstayed(let venue, let stay):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: request.time.milliseconds - stay * 1000 + 1,
                                                      at: request.time.milliseconds, stay: stay * 1000, kind: request.kind, on: session),
                                  visit: nil)
        }
        let ended = try session.first(LedgerStatements.endVisit, [.integer(row), .integer(request.time.milliseconds), .text(request.kind.rawValue)]) {
            row throws(LedgerError) in (venue: row.text(0), device: row.text(1), entered: try row.integer(2))
        }
        if let ended, let device = ended.device {
            try session.run(LedgerStatements.releaseClaim, [.text(ended.venue), .text(device), .integer(ended.entered)])
        }
        if ended != nil { try enqueueCheckOut(row: row, at: request.time, on: session) }
        return CheckOutReport(closed: ended == nil ? 0 : 1, visit: try find(row: row, on: session))
    }

    /// Ends the open visits at `venue` entered before `cutoff` (ms), releasing their duplicate
    /// keys first. PostgreSQL holds the venue's admission lock meanwhile: two servers' automatic
    /// passes over one venue take turns instead of locking the same rows in different orders.
    private func endOpen(_ venue: VenueID, enteredBefore cutoff: Int64, at time: Int64, stay: Int64?, kind: ExitKind,
                         on session: any SQLSession) throws(LedgerError) -> Int {
        if session.dialect.locksVenues { try session.run(LedgerStatements.lockVenue, [.text(venue.rawValue)]) }
        try session.run(LedgerStatements.releaseClaimsOfOpen, [.text(venue.rawValue), .integer(cutoff)])
        let values: [SQLValue] = [.text(venue.rawValue), .integer(cutoff), .integer(time), .integer(stay), .text(kind.rawValue)]
        try enqueueEndOpen(values, on: session)
        return try session.run(LedgerStatements.endOpenVisits, values)
    }

    /// A page of open visits (of `venue`, or of every venue), oldest first, after `position`.
    public func openVisits(venue: VenueID?, after position: LogPosition?, limit: Int, on session: any SQLSession) throws(LedgerError) -> [CheckIn] {
        var rows: [CheckIn] = []
        try openVisits(venue: venue, after: position, limit: limit, on: session) { visit in rows.append(visit) }
        return rows
    }

    /// The same page, each visit handed to `each` as its row is read (`FoldedPage`).
    public func openVisits(venue: VenueID?, after position: LogPosition?, limit: Int, on session: any SQLSession,
                           _ each: (CheckIn) -> Void) throws(LedgerError) {
        let after = try position.map { position throws(LedgerError) in try row(of: position) }
        var values: [SQLValue] = venue.map { [.text($0.rawValue)] } ?? []
        if let after { values += [.integer(after.time), .integer(after.row)] }
        values.append(.integer(Int64(max(0, limit))))
        let sql = LedgerStatements.selectOpenPage[OpenPage(atVenue: venue != nil, after: after != nil)]!
        try session.checkIns(sql.text(for: session.dialect), values, ids: ids, each)
    }

    /// The time and row id of the check-in a position names.
    func row(of position: LogPosition) throws(LedgerError) -> (time: Int64, row: Int64) {
        guard let row = ids.rowID(shown: position.id) else { throw LedgerError(.failed, "a page's position names check-in \(position.id), which no ledger shows") }
        return (position.time.milliseconds, row)
    }

    /// Open visits per venue (of `venue` or every venue), entered at or after `openSince` when given.
    public func occupancy(venue: VenueID?, openSince: WallTime?, on session: any SQLSession) throws(LedgerError) -> [VenueID: Int] {
        var counts: [VenueID: Int] = [:]
        try session.query(LedgerStatements.countOpen, [.text(venue?.rawValue), .integer(openSince?.milliseconds)]) { row throws(LedgerError) in
            counts[try LedgerRows.venue(row, 0, session.target)] = Int(try row.integer(1) ?? 0)
            return true
        }
        return counts
    }

    /// The visits `query` selects, oldest first.
    public func visits(meeting query: MeetingQuery, on session: any SQLSession) throws(LedgerError) -> [CheckIn] {
        var venues = VenueCache()
        return try session.all(LedgerStatements.selectMeeting, [
            .text(query.venue.rawValue), .integer(query.from.milliseconds), .integer(query.until.milliseconds),
            .integer(query.now.milliseconds), .integer(query.longestStaySeconds * 1000),
        ]) { row throws(LedgerError) in try LedgerRows.checkIn(row, ids: ids, venues: &venues) }
    }
}
