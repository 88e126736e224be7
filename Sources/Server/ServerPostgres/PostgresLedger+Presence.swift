import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Exits, open visits, occupancy and overlaps (issue 32) on PostgreSQL. An exit is one
/// transaction: the visit's conditional update (`exit_ms IS NULL`: two servers ending one visit
/// record one exit) and the release of its device's duplicate key.
extension PostgresLedger {
    public func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void) {
        submit {
            completion(Result { () throws(LedgerError) in
                try self.pool.withConnection { connection throws(LedgerError) in
                    try connection.transaction { () throws(LedgerError) in try self.checkOut(request, connection) }
                }
            })
        }
    }

    func checkOut(_ request: CheckOutRequest, _ connection: PostgresConnection) throws(LedgerError) -> CheckOutReport {
        let row: Int64
        switch request.target {
        case .checkIn(let id):
            guard let found = ids.rowID(shown: id) else { return CheckOutReport(closed: 0, visit: nil) }
            row = found
        case .device(let device, let venue):
            let latest = try connection.query(Self.latestVisit, [.text(device.rawValue), .text(venue.rawValue)])
            guard latest.rowCount == 1, let found = try latest.int64(0, 0) else { return CheckOutReport(closed: 0, visit: nil) }
            row = found
        case .venue(let venue):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: Int64.max, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, connection), visit: nil)
        case .enteredBefore(let venue, let cutoff):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: cutoff.milliseconds, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, connection), visit: nil)
        case .overstayed(let venue, let stay):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: request.time.milliseconds - stay * 1000 + 1,
                                                      at: request.time.milliseconds, stay: stay * 1000, kind: request.kind, connection),
                                  visit: nil)
        }
        let ended = try connection.query(Self.endVisit, [.int64(row), .int64(request.time.milliseconds), .text(request.kind.rawValue)])
        if ended.rowCount == 1, let device = ended.text(0, 1) {
            _ = try connection.query(Self.releaseClaim, [.text(ended.text(0, 0)), .text(device), .int64(try ended.int64(0, 2))])
        }
        let found = try connection.query("SELECT \(LedgerSchema.checkInColumns) FROM checkins WHERE id = $1", [.int64(row)])
        return CheckOutReport(closed: ended.rowCount, visit: found.rowCount == 0 ? nil : try PostgresRows.checkIn(found, row: 0, ids: ids))
    }

    /// Ends many visits at once, holding the venue's admission lock: two servers' automatic
    /// passes over one venue take turns instead of locking the same rows in different orders.
    private func endOpen(_ venue: VenueID, enteredBefore cutoff: Int64, at time: Int64, stay: Int64?, kind: ExitKind,
                         _ connection: PostgresConnection) throws(LedgerError) -> Int {
        _ = try connection.query(Self.lockVenue, [.text(venue.rawValue)])
        _ = try connection.query(Self.releaseClaimsOfOpen, [.text(venue.rawValue), .int64(cutoff)])
        return try connection.query(Self.endOpenVisits, [.text(venue.rawValue), .int64(cutoff), .int64(time), .int64(stay),
                                                         .text(kind.rawValue)]).changedRows
    }

    public func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            let (sql, parameters): (String, [PostgresParameter]) = venue.map { (Self.selectOpenAtVenue, [.text($0.rawValue)]) } ?? (Self.selectOpen, [])
            try connection.stream(sql, parameters) { row throws(LedgerError) in
                body(try PostgresRows.checkIn(row, row: 0, ids: ids))
            }
        }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int] {
        try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(Self.countOpen, [.text(venue?.rawValue), .int64(openSince?.milliseconds)], repeatable: true)
            var counts: [VenueID: Int] = [:]
            for row in 0..<rows.rowCount {
                guard let venue = rows.text(row, 0).flatMap({ try? VenueID($0) }) else {
                    throw LedgerError(.corrupt, "a check-in has a venue no ledger writes")
                }
                counts[venue] = Int(try rows.int64(row, 1) ?? 0)
            }
            return counts
        }
    }

    public func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn] {
        try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(Self.selectMeeting, [
                .text(query.venue.rawValue), .int64(query.from.milliseconds), .int64(query.until.milliseconds),
                .int64(query.now.milliseconds), .int64(query.longestStaySeconds * 1000),
            ], repeatable: true)
            var visits: [CheckIn] = []
            for row in 0..<rows.rowCount { visits.append(try PostgresRows.checkIn(rows, row: row, ids: ids)) }
            return visits
        }
    }

    private static let latestVisit = SQLDialect.postgresql.render(LedgerSchema.latestVisit)
    private static let endVisit = SQLDialect.postgresql.render(LedgerSchema.endVisit)
    private static let releaseClaim = SQLDialect.postgresql.render(LedgerSchema.releaseClaim)
    private static let releaseClaimsOfOpen = SQLDialect.postgresql.render(LedgerSchema.releaseClaimsOfOpen)
    private static let endOpenVisits = SQLDialect.postgresql.render(LedgerSchema.endOpenVisits)
    private static let selectOpen = SQLDialect.postgresql.render(LedgerSchema.selectOpen)
    private static let selectOpenAtVenue = SQLDialect.postgresql.render(LedgerSchema.selectOpenAtVenue)
    private static let countOpen = SQLDialect.postgresql.render(LedgerSchema.countOpen)
    private static let selectMeeting = SQLDialect.postgresql.render(LedgerSchema.selectMeeting)
}
