import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Exits, open visits, occupancy and overlaps (issue 32) on PostgreSQL. An exit is one
/// transaction (`SQLLedger.checkOut`).
extension PostgresLedger {
    public func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void) {
        submit {
            completion(Result { () throws(LedgerError) in
                try self.write { session throws(LedgerError) in try self.sql.checkOut(request, on: session) }
            })
        }
    }

    public func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try read { session throws(LedgerError) in try sql.openVisits(venue: venue, on: session, body) }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int] {
        try read { session throws(LedgerError) in try sql.occupancy(venue: venue, openSince: openSince, on: session) }
    }

    public func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn] {
        try read { session throws(LedgerError) in try sql.visits(meeting: query, on: session) }
    }
}
