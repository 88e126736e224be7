import ServerDomain
import SharedDomain

/// The ledger's values to and from rows, for both engines: check-ins (`LedgerSchema.checkInColumns`
/// order), audit entries, console accounts and sessions. A row no ledger would write is `corrupt`,
/// its message naming the row id, never a visitor's data.
public enum LedgerRows {
    /// The columns of `checkins` after `id`, as parameters $1…$8.
    public static func values(_ entry: NewCheckIn) -> [SQLValue] {
        [.text(entry.venue.rawValue), .integer(entry.time.milliseconds), .text(entry.method.rawValue),
         .integer(entry.windowAge.map(Int64.init)), .text(entry.device?.rawValue), .text(entry.visitor?.name),
         .text(entry.visitor?.phone), .text(entry.operatorName)]
    }

    /// The check-in of `row`, with the id `ids` shows for it.
    public static func checkIn(_ row: any SQLRow, ids: CheckInIDCipher) throws(LedgerError) -> CheckIn {
        var venues = VenueCache()
        return try checkIn(row, ids: ids, venues: &venues)
    }

    /// The check-in of `row`, its venue id taken from `venues` when the row names one seen lately.
    /// Generic and inlinable: an engine's loop over its own rows (`SQLSession.checkIns`) gets it
    /// specialised, each column read inlined, not called through the `SQLRow` existential.
    @inlinable
    public static func checkIn<Row: SQLRow>(_ row: Row, ids: CheckInIDCipher, venues: inout VenueCache) throws(LedgerError) -> CheckIn {
        let id = try row.integer(0) ?? 0
        guard let venue = venues.venue(row, column: 1), let time = try row.integer(2),
              let method = row.text(3).flatMap(CheckInMethod.init(rawValue:)) else {
            throw LedgerError(.corrupt, "check-in \(id) has a venue, time or method no ledger writes")
        }
        var device: DeviceID?
        if let text = row.text(5) {
            guard let valid = DeviceID(text) else { throw LedgerError(.corrupt, "check-in \(id) has a malformed device id") }
            device = valid
        }
        let name = row.text(6), phone = row.text(7)
        let visitor = name == nil && phone == nil ? nil : Visitor(name: name, phone: phone)
        let entry = NewCheckIn(venue: venue, time: WallTime(milliseconds: time), method: method, windowAge: try row.integer(4).map { Int($0) },
                               device: device, visitor: visitor, operatorName: row.text(8))
        // The exit's kind is read only for a row that has an exit: most rows of a long read
        // have none, and reading a NULL column is a call into SQLite for nothing.
        let exitTime = try row.integer(9)
        let visitExit = exitTime == nil ? nil : try exit(at: exitTime, kind: row.text(10), id: id)
        return CheckIn(id: try ids.shownID(row: id), entry: entry, exit: visitExit)
    }

    /// A row's exit from its `exit_ms` and `exit_kind`: both or neither.
    @usableFromInline
    static func exit(at milliseconds: Int64?, kind text: String?, id: Int64) throws(LedgerError) -> VisitExit? {
        guard let milliseconds else { return nil }
        guard let kind = text.flatMap(ExitKind.init(rawValue:)) else { throw LedgerError(.corrupt, "check-in \(id) has an exit of no kind") }
        return VisitExit(time: WallTime(milliseconds: milliseconds), kind: kind)
    }

    /// The audit entry of `row` (`LedgerSchema.auditColumns` order).
    static func auditEntry(_ row: any SQLRow, _ target: String) throws(LedgerError) -> AuditEntry {
        guard let id = try row.integer(0), let at = try row.integer(1), let actor = row.text(2),
              let action = row.text(3).flatMap(AuditAction.init(rawValue:)) else {
            throw LedgerError(.corrupt, "\(target): an audit entry no ledger writes")
        }
        return AuditEntry(id: id, time: WallTime(milliseconds: at), actor: actor, action: action, subject: row.text(4),
                          detail: row.text(5), rows: try row.integer(6).map(Int.init), source: row.text(7))
    }

    /// The console account of `row` (`LedgerSchema.accountSelection` order).
    static func account(_ row: any SQLRow, _ target: String) throws(LedgerError) -> ConsoleAccount {
        guard let name = row.text(0), let role = row.text(1).flatMap(ConsoleRole.init(rawValue:)), let hash = row.text(2),
              let disabled = try row.integer(3), let created = try row.integer(4),
              let signIn = row.text(5).flatMap(AccountSignIn.init(rawValue:)) else {
            throw LedgerError(.corrupt, "\(target): a console account no ledger writes")
        }
        let secondFactor = try row.text(6).map { sealed throws(LedgerError) in
            SecondFactorState(sealedSecret: sealed, lastStep: try row.integer(7), recoveryCodesLeft: Int(try row.integer(8) ?? 0))
        }
        return ConsoleAccount(name: name, role: role, passwordHash: hash, disabled: disabled != 0, created: WallTime(milliseconds: created),
                              signIn: signIn, secondFactor: secondFactor)
    }

    /// The console session of `row` (`LedgerSchema.sessionColumns` order).
    static func session(_ row: any SQLRow, _ target: String) throws(LedgerError) -> ConsoleSession {
        guard let hash = row.text(0), let account = row.text(1), let created = try row.integer(2), let seen = try row.integer(3),
              let token = row.text(4) else { throw LedgerError(.corrupt, "\(target): a console session no ledger writes") }
        return ConsoleSession(idHash: hash, account: account, created: WallTime(milliseconds: created), lastSeen: WallTime(milliseconds: seen),
                              formToken: token)
    }

    /// A venue id read from `column`, `corrupt` when it is not one.
    static func venue(_ row: any SQLRow, _ column: Int, _ target: String) throws(LedgerError) -> VenueID {
        guard let venue = row.text(column).flatMap({ try? VenueID($0) }) else {
            throw LedgerError(.corrupt, "\(target): a row has a venue no ledger writes")
        }
        return venue
    }
}
