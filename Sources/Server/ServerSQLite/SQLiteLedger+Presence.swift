import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Exits, open visits, occupancy and overlaps (issue 32). Exits go through the one writer, as
/// check-ins do; reads through the read connections (they work on a read-only database).
extension SQLiteLedger {
    public func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void) {
        writer.submit({ [sql] connection throws(LedgerError) in try sql.checkOut(request, on: SQLiteSession(connection)) }, completion: completion)
    }

    public func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try snapshot { session throws(LedgerError) in try sql.openVisits(venue: venue, on: session, body) }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int] {
        try read { session throws(LedgerError) in try sql.occupancy(venue: venue, openSince: openSince, on: session) }
    }

    public func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn] {
        try read { session throws(LedgerError) in try sql.visits(meeting: query, on: session) }
    }
}
