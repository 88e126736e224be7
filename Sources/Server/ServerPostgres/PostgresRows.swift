import ServerDomain
import SharedDomain

/// Check-ins to and from rows of `checkins` (columns in `LedgerSchema.checkInColumns` order).
enum PostgresRows {
    /// The columns after `id`, as parameters $1…$8.
    static func parameters(_ entry: NewCheckIn) -> [PostgresParameter] {
        [.text(entry.venue.rawValue), .int64(entry.time.milliseconds), .text(entry.method.rawValue),
         .int64(entry.windowAge.map(Int64.init)), .text(entry.device?.rawValue), .text(entry.visitor?.name),
         .text(entry.visitor?.phone), .text(entry.operatorName)]
    }

    /// The check-in of row `row`, with the id `ids` shows for it; a row no ledger would write
    /// is `corrupt`.
    static func checkIn(_ result: PostgresResult, row: Int, ids: CheckInIDCipher) throws(LedgerError) -> CheckIn {
        // Errors name the row id: they are for whoever repairs the database, not for visitors.
        let id = try result.int64(row, 0) ?? 0
        guard let venueText = result.text(row, 1), let venue = try? VenueID(venueText), let time = try result.int64(row, 2),
              let method = result.text(row, 3).flatMap(CheckInMethod.init(rawValue:)) else {
            throw LedgerError(.corrupt, "check-in \(id) has a venue, time or method no ledger writes")
        }
        let device = try result.text(row, 5).map { text throws(LedgerError) in
            guard let device = DeviceID(text) else { throw LedgerError(.corrupt, "check-in \(id) has a malformed device id") }
            return device
        }
        let name = result.text(row, 6), phone = result.text(row, 7)
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        return CheckIn(id: try ids.shownID(row: id), entry: NewCheckIn(venue: venue, time: WallTime(milliseconds: time), method: method,
                                                 windowAge: try result.int64(row, 4).map { Int($0) }, device: device,
                                                 visitor: visitor, operatorName: result.text(row, 8)),
                       exit: try exit(at: result.int64(row, 9), kind: result.text(row, 10), id: id))
    }

    /// A row's exit from its `exit_ms` and `exit_kind`: both or neither.
    static func exit(at milliseconds: Int64?, kind text: String?, id: Int64) throws(LedgerError) -> VisitExit? {
        guard let milliseconds else { return nil }
        guard let kind = text.flatMap(ExitKind.init(rawValue:)) else { throw LedgerError(.corrupt, "check-in \(id) has an exit of no kind") }
        return VisitExit(time: WallTime(milliseconds: milliseconds), kind: kind)
    }
}
