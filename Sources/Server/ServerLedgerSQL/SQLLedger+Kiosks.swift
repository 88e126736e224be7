import ServerDomain
import SharedDomain
import SharedJSON

/// The kiosk fleet (`KioskFleet`) and its operator actions, written once for both engines: each
/// engine runs these on the session it has (a write transaction for `receive`, a read for the
/// listings, the action's transaction for steering and forgetting).
extension SQLLedger {
    /// Stores a report unless its nonce was seen within `window` ms (one write transaction):
    /// expires the kiosk's old nonces, claims this one, upserts the report, marks the steer the
    /// report says it applied, and reads the steer still pending.
    public func receive(_ receipt: KioskReceipt, window: Int64, on session: any SQLSession) throws(LedgerError) -> KioskReceiptOutcome {
        let venue = SQLValue.text(receipt.report.venue.rawValue), kiosk = SQLValue.text(receipt.report.kiosk.rawValue)
        try session.run(LedgerStatements.expireKioskNonces, [venue, kiosk, .integer(receipt.receivedAt.milliseconds - window)])
        let claimed = try session.first(LedgerStatements.insertKioskNonce, [venue, kiosk, .text(receipt.nonce.text), .integer(receipt.signedAt)],
                                         { _ in true }) != nil
        guard claimed else { return .replayed }
        try session.run(LedgerStatements.upsertKiosk, [venue, kiosk, .text(String(decoding: receipt.body, as: UTF8.self)),
                                                       .integer(receipt.receivedAt.milliseconds)])
        var steer = try latestSteer(venue, kiosk, on: session)
        if let pending = steer, pending.isPending, let applied = receipt.report.applied, applied.steer == pending.steer.id {
            try session.run(LedgerStatements.markSteerApplied, [.integer(applied.steer), .integer(applied.at), .text(applied.outcome)])
            steer = KioskSteerRecord(steer: pending.steer, appliedAt: applied.at, outcome: applied.outcome)
        }
        return .stored(pending: steer.flatMap { $0.isPending ? $0.steer : nil })
    }

    /// Keeps `announcement` unless it is what was last told (`KioskFleet.announce`), and
    /// beside it the `kiosk` events of the endpoints that hear it (one write transaction).
    public func announce(_ announcement: KioskAnnouncement, at time: WallTime, on session: any SQLSession) throws(LedgerError) -> Bool {
        let news = try session.first(LedgerStatements.announceKiosk, [
            .text(announcement.key.venue.rawValue), .text(announcement.key.name.rawValue), .text(announcement.stored),
        ], { _ in true }) != nil
        if news { try enqueueKiosk(announcement, at: time, on: session) }
        return news
    }

    /// Every kiosk of `venue` (or of every venue), ordered by venue and name.
    public func kiosks(venue: VenueID?, on session: any SQLSession) throws(LedgerError) -> [KioskRecord] {
        if let venue {
            return try session.all(LedgerStatements.selectKiosksOfVenue, [.text(venue.rawValue)]) { row throws(LedgerError) in try Self.kiosk(row) }
        }
        return try session.all(LedgerStatements.selectAllKiosks, []) { row throws(LedgerError) in try Self.kiosk(row) }
    }

    /// The kiosk `key`, if known.
    public func kiosk(_ key: KioskKey, on session: any SQLSession) throws(LedgerError) -> KioskRecord? {
        try session.first(LedgerStatements.selectKiosk, [.text(key.venue.rawValue), .text(key.name.rawValue)]) { row throws(LedgerError) in
            try Self.kiosk(row)
        }
    }

    /// The steer pending for `key`, if any.
    public func pendingSteer(for key: KioskKey, on session: any SQLSession) throws(LedgerError) -> KioskSteer? {
        try latestSteer(.text(key.venue.rawValue), .text(key.name.rawValue), on: session).flatMap { $0.isPending ? $0.steer : nil }
    }

    /// Steers after `id`, oldest first, at most `limit`.
    public func steers(after id: Int64, limit: Int, on session: any SQLSession) throws(LedgerError) -> [KioskSteerNotice] {
        try session.all(LedgerStatements.selectSteersAfter, [.integer(id), .integer(Int64(limit))]) { row throws(LedgerError) in
            let id = try row.integer(0) ?? 0
            guard let key = Self.key(row.text(1), row.text(2)) else { throw LedgerError(.corrupt, "kiosk steer \(id) names no kiosk") }
            return KioskSteerNotice(id: id, key: key)
        }
    }

    /// The newest steer's id, 0 when none.
    public func latestSteerID(on session: any SQLSession) throws(LedgerError) -> Int64 {
        Int64(try session.count(LedgerStatements.selectLatestSteerID, []))
    }

    /// Gives `key` a steer merged into the pending one (`LedgerTransaction.steerKiosk`); nil
    /// when the kiosk is unknown. The kiosk's row is read first (PostgreSQL: locked till the
    /// commit), so two steers of one kiosk merge one after the other.
    public func steerKiosk(_ key: KioskKey, _ change: KioskSteerChange, by: OperatorName, at time: WallTime,
                           on session: any SQLSession) throws(LedgerError) -> KioskSteer? {
        let venue = SQLValue.text(key.venue.rawValue), kiosk = SQLValue.text(key.name.rawValue)
        guard try session.first(LedgerStatements.selectKioskForSteer, [venue, kiosk], { _ in true }) != nil else { return nil }
        let pending = try latestSteer(venue, kiosk, on: session).flatMap { $0.isPending ? $0.steer : nil }
        let merged = change.merged(over: pending)
        let found = try session.first(LedgerStatements.insertKioskSteer, [
            venue, kiosk, .text(merged.refresh?.rawValue), .text(merged.shake?.rawValue), .integer(merged.newCode ? 1 : 0),
            .text(by.rawValue), .integer(time.milliseconds),
        ]) { row throws(LedgerError) in try row.integer(0) }
        guard let id = found ?? nil else { throw LedgerError(.failed, "\(session.target): the steer's insert returned no id") }
        try session.run(LedgerStatements.deleteOlderSteers, [venue, kiosk, .integer(id)])
        return KioskSteer(id: id, refresh: merged.refresh, shake: merged.shake, newCode: merged.newCode, by: by, at: time.seconds)
    }

    /// Forgets `key` (`LedgerTransaction.forgetKiosk`): its report, steers and nonces.
    public func forgetKiosk(_ key: KioskKey, on session: any SQLSession) throws(LedgerError) -> Bool {
        let values: [SQLValue] = [.text(key.venue.rawValue), .text(key.name.rawValue)]
        let known = try session.first(LedgerStatements.deleteKiosk, values, { _ in true }) != nil
        try session.run(LedgerStatements.deleteKioskSteers, values)
        try session.run(LedgerStatements.deleteKioskNonces, values)
        return known
    }

    private func latestSteer(_ venue: SQLValue, _ kiosk: SQLValue, on session: any SQLSession) throws(LedgerError) -> KioskSteerRecord? {
        let found = try session.first(LedgerStatements.selectKioskSteer, [venue, kiosk]) { row throws(LedgerError) in try Self.steer(row, at: 0) }
        return found ?? nil
    }

    static func key(_ venue: String?, _ kiosk: String?) -> KioskKey? {
        guard let venue = venue.flatMap({ try? VenueID($0) }), let kiosk = kiosk.flatMap({ try? KioskName($0) }) else { return nil }
        return KioskKey(venue: venue, name: kiosk)
    }

    /// A row of `selectKiosks`: the report (read back as the kiosk signed it) and its steer.
    static func kiosk(_ row: any SQLRow) throws(LedgerError) -> KioskRecord {
        let name = "\(row.text(0) ?? "?")/\(row.text(1) ?? "?")"
        guard let body = row.text(2), let received = try row.integer(3) else { throw LedgerError(.corrupt, "kiosk \(name) has no report") }
        let report: KioskReport
        do throws(ReportFormatError) {
            report = try KioskReport(body: Array(body.utf8))
        } catch {
            throw LedgerError(.corrupt, "kiosk \(name)'s stored report is not one: \(error.description)")
        }
        return KioskRecord(report: report, receivedAt: WallTime(milliseconds: received), steer: try steer(row, at: 4), announced: row.text(14))
    }

    /// The steer in `steerColumns` order from column `first`; nil when its id is NULL.
    static func steer(_ row: any SQLRow, at first: Int) throws(LedgerError) -> KioskSteerRecord? {
        guard let id = try row.integer(first) else { return nil }
        let refresh = row.text(first + 3), shake = row.text(first + 4)
        guard let by = row.text(first + 6).flatMap(OperatorName.init), let at = try row.integer(first + 7),
              refresh.map({ RefreshMode(rawValue: $0) != nil }) ?? true, shake.map({ ShakeMode(rawValue: $0) != nil }) ?? true else {
            throw LedgerError(.corrupt, "kiosk steer \(id) has a mode, operator or time no ledger writes")
        }
        let steer = KioskSteer(id: id, refresh: refresh.flatMap(RefreshMode.init), shake: shake.flatMap(ShakeMode.init),
                               newCode: (try row.integer(first + 5) ?? 0) != 0, by: by, at: WallTime(milliseconds: at).seconds)
        return KioskSteerRecord(steer: steer, appliedAt: try row.integer(first + 8), outcome: row.text(first + 9))
    }
}
