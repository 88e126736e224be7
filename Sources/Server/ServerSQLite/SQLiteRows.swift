import CSQLite
import Glibc
import ServerDomain
import ServerLedgerSQL
import SharedDomain

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

    /// The check-in of the statement's current row, with the id `ids` shows for it; a row no
    /// ledger would write is `corrupt`.
    static func checkIn(_ row: SQLiteStatement, ids: CheckInIDCipher) throws(LedgerError) -> CheckIn {
        var venues = VenueCache()
        return try checkIn(row, ids: ids, venues: &venues)
    }

    /// The check-in of the current row, its venue id taken from `venues` when the row names a
    /// venue seen lately (an export's rows do: a few venues, a million rows).
    static func checkIn(_ row: SQLiteStatement, ids: CheckInIDCipher, venues: inout VenueCache) throws(LedgerError) -> CheckIn {
        // Errors name the row id: they are for whoever repairs the database, not for visitors.
        let id = row.int64(0) ?? 0
        guard let venue = venues.venue(row, column: 1), let time = row.int64(2),
              let method = row.text(3).flatMap(CheckInMethod.init(rawValue:)) else {
            throw LedgerError(.corrupt, "check-in \(id) has a venue, time or method no ledger writes")
        }
        var device: DeviceID?
        if let text = row.text(5) {
            guard let valid = DeviceID(text) else { throw LedgerError(.corrupt, "check-in \(id) has a malformed device id") }
            device = valid
        }
        let name = row.text(6), phone = row.text(7)
        var windowAge: Int?
        if let age = row.int64(4) { windowAge = Int(age) }
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        return CheckIn(id: try ids.shownID(row: id), entry: NewCheckIn(venue: venue, time: WallTime(milliseconds: time), method: method,
                                                 windowAge: windowAge, device: device, visitor: visitor, operatorName: row.text(8)),
                       exit: try exit(row, id: id))
    }

    /// The current row's exit (`exit_ms`, `exit_kind`: both or neither).
    static func exit(_ row: SQLiteStatement, id: Int64) throws(LedgerError) -> VisitExit? {
        guard let milliseconds = row.int64(9) else { return nil }
        guard let kind = row.text(10).flatMap(ExitKind.init(rawValue:)) else { throw LedgerError(.corrupt, "check-in \(id) has an exit of no kind") }
        return VisitExit(time: WallTime(milliseconds: milliseconds), kind: kind)
    }
}

/// The venue ids of the last few rows, matched by their bytes: a row of a venue seen lately
/// costs a memcmp instead of a String and its validation.
struct VenueCache {
    private var recent: [VenueID] = []
    private var next = 0
    /// Venues remembered at most.
    static let size = 8

    /// The venue id in `column` of the current row; nil when it is NULL or not a venue id.
    mutating func venue(_ row: SQLiteStatement, column: Int32) -> VenueID? {
        guard let bytes = row.bytes(column) else { return nil }
        for venue in recent {
            var text = venue.rawValue
            let same = text.withUTF8 { known in
                known.count == bytes.count && (known.count == 0 || memcmp(known.baseAddress!, bytes.baseAddress!, known.count) == 0)
            }
            if same { return venue }
        }
        guard let venue = try? VenueID(String(decoding: bytes, as: UTF8.self)) else { return nil }
        if recent.count < Self.size {
            recent.append(venue)
        } else {
            recent[next] = venue
            next = (next + 1) % Self.size
        }
        return venue
    }
}
