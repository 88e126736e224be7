import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Exits, open visits, occupancy and overlaps (issue 32). Exits go through the one writer, as
/// check-ins do; reads through the read connections (they work on a read-only database).
extension SQLiteLedger {
    public func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void) {
        writer.submit({ [ids] connection throws(LedgerError) in try Self.checkOut(request, connection, ids) }, completion: completion)
    }

    static func checkOut(_ request: CheckOutRequest, _ connection: SQLiteConnection,
                                 _ ids: CheckInIDCipher) throws(LedgerError) -> CheckOutReport {
        let row: Int64
        switch request.target {
        case .checkIn(let id):
            guard let found = ids.rowID(shown: id) else { return CheckOutReport(closed: 0, visit: nil) }
            row = found
        case .device(let device, let venue):
            let latest = try connection.statement(Self.latestVisit)
            defer { latest.reset() }
            try latest.bind(1, device.rawValue)
            try latest.bind(2, venue.rawValue)
            guard try latest.step(), let found = latest.int64(0) else { return CheckOutReport(closed: 0, visit: nil) }
            row = found
        case .venue(let venue):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: Int64.max, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, connection), visit: nil)
        case .enteredBefore(let venue, let cutoff):
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: cutoff.milliseconds, at: request.time.milliseconds, stay: nil,
                                                      kind: request.kind, connection), visit: nil)
        case .overstayed(let venue, let stay):
            let stayMilliseconds = stay * 1000
            return CheckOutReport(closed: try endOpen(venue, enteredBefore: request.time.milliseconds - stayMilliseconds + 1,
                                                      at: request.time.milliseconds, stay: stayMilliseconds, kind: request.kind, connection),
                                  visit: nil)
        }
        let end = try connection.statement(Self.endVisit)
        try end.bind(1, row)
        try end.bind(2, request.time.milliseconds)
        try end.bind(3, request.kind.rawValue)
        var closed = 0
        if try end.step(), let venue = end.text(0), let entered = end.int64(2) {
            closed = 1
            if let device = end.text(1) {
                let venueText = venue
                end.reset()
                let release = try connection.statement(Self.releaseClaim)
                try release.bind(1, venueText)
                try release.bind(2, device)
                try release.bind(3, entered)
                try release.run()
            }
        }
        end.reset()
        let select = try connection.statement("SELECT \(LedgerSchema.checkInColumns) FROM checkins WHERE id = ?1")
        defer { select.reset() }
        try select.bind(1, row)
        return CheckOutReport(closed: closed, visit: try select.step() ? try SQLiteRows.checkIn(select, ids: ids) : nil)
    }

    /// Ends the open visits at `venue` entered before `cutoff` (ms), releasing their duplicate keys first.
    private static func endOpen(_ venue: VenueID, enteredBefore cutoff: Int64, at time: Int64, stay: Int64?, kind: ExitKind,
                                _ connection: SQLiteConnection) throws(LedgerError) -> Int {
        let release = try connection.statement(Self.releaseClaimsOfOpen)
        try release.bind(1, venue.rawValue)
        try release.bind(2, cutoff)
        try release.run()
        let end = try connection.statement(Self.endOpenVisits)
        try end.bind(1, venue.rawValue)
        try end.bind(2, cutoff)
        try end.bind(3, time)
        try end.bind(4, stay)
        try end.bind(5, kind.rawValue)
        try end.run()
        return connection.changes
    }

    public func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try readers.read { connection throws(LedgerError) in
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let select = try connection.statement(venue == nil ? Self.selectOpen : Self.selectOpenAtVenue)
            defer { select.reset() }
            if let venue { try select.bind(1, venue.rawValue) }
            var venues = VenueCache()
            while try select.step() {
                guard body(try SQLiteRows.checkIn(select, ids: ids, venues: &venues)) else { break }
            }
        }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.countOpen)
            defer { select.reset() }
            try select.bind(1, venue?.rawValue)
            try select.bind(2, openSince?.milliseconds)
            var counts: [VenueID: Int] = [:]
            while try select.step() {
                guard let venue = select.text(0).flatMap({ try? VenueID($0) }) else {
                    throw LedgerError(.corrupt, "\(connection.path): a check-in has a venue no ledger writes")
                }
                counts[venue] = Int(select.int64(1) ?? 0)
            }
            return counts
        }
    }

    public func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.selectMeeting)
            defer { select.reset() }
            try select.bind(1, query.venue.rawValue)
            try select.bind(2, query.from.milliseconds)
            try select.bind(3, query.until.milliseconds)
            try select.bind(4, query.now.milliseconds)
            try select.bind(5, query.longestStaySeconds * 1000)
            var rows: [CheckIn] = []
            var venues = VenueCache()
            while try select.step() { rows.append(try SQLiteRows.checkIn(select, ids: ids, venues: &venues)) }
            return rows
        }
    }

    private static let latestVisit = SQLDialect.sqlite.render(LedgerSchema.latestVisit)
    private static let endVisit = SQLDialect.sqlite.render(LedgerSchema.endVisit)
    private static let releaseClaim = SQLDialect.sqlite.render(LedgerSchema.releaseClaim)
    private static let releaseClaimsOfOpen = SQLDialect.sqlite.render(LedgerSchema.releaseClaimsOfOpen)
    private static let endOpenVisits = SQLDialect.sqlite.render(LedgerSchema.endOpenVisits)
    private static let selectOpen = SQLDialect.sqlite.render(LedgerSchema.selectOpen)
    private static let selectOpenAtVenue = SQLDialect.sqlite.render(LedgerSchema.selectOpenAtVenue)
    private static let countOpen = SQLDialect.sqlite.render(LedgerSchema.countOpen)
    private static let selectMeeting = SQLDialect.sqlite.render(LedgerSchema.selectMeeting)
}
