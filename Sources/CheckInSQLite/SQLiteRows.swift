import CheckInDomain
import CheckInLedgerSQL
import CheckInServerDomain

/// Check-ins to and from rows of `checkins` (columns in `LedgerSchema.checkInColumns` order).
enum SQLiteRows {
    /// Binds the columns after `id` to parameters 1...8.
    static func bind(_ entry: NewCheckIn, to statement: SQLiteStatement) throws(LedgerError) {
        try statement.bind(1, entry.venue.rawValue)
        try statement.bind(2, entry.time.milliseconds)
        try statement.bind(3, entry.method.rawValue)
        try statement.bind(4, entry.windowAge.map(Int64.init))
        try statement.bind(5, entry.device?.rawValue)
        try statement.bind(6, entry.visitor?.name)
        try statement.bind(7, entry.visitor?.phone)
        try statement.bind(8, entry.operatorName)
    }

    /// The check-in of the statement's current row; a row no ledger would write is `corrupt`.
    static func checkIn(_ row: SQLiteStatement) throws(LedgerError) -> CheckIn {
        let id = row.int64(0) ?? 0
        guard let venueText = row.text(1), let venue = try? VenueID(venueText),
              let time = row.int64(2), let method = row.text(3).flatMap(CheckInMethod.init(rawValue:)) else {
            throw LedgerError(.corrupt, "check-in \(id) has a venue, time or method no ledger writes")
        }
        let device = try row.text(5).map { text throws(LedgerError) in
            guard let device = DeviceID(text) else { throw LedgerError(.corrupt, "check-in \(id) has a malformed device id") }
            return device
        }
        let name = row.text(6), phone = row.text(7)
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        return CheckIn(id: id, entry: NewCheckIn(venue: venue, time: WallTime(milliseconds: time), method: method,
                                                 windowAge: row.int64(4).map { Int($0) }, device: device,
                                                 visitor: visitor, operatorName: row.text(8)))
    }
}
