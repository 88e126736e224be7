import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// What copying a ledger's history into PostgreSQL did.
public struct LedgerCopyReport: Hashable, Sendable {
    /// Check-ins the source holds for the selection.
    public let source: Int
    /// Check-ins copied now.
    public let copied: Int
    /// Check-ins that were already in PostgreSQL (an earlier copy).
    public let alreadyThere: Int
    /// Check-ins PostgreSQL holds for the selection afterwards (more than `source` when servers
    /// have recorded there too).
    public let destination: Int
    /// Of those copied, how many could not keep their id because a check-in recorded here
    /// shows it already (two ledgers' keys gave one number: about one in 2^48 pairs of rows).
    /// They show a new one; their receipts no longer find them.
    public let renumbered: Int

    /// A report of these counts.
    public init(source: Int, copied: Int, alreadyThere: Int, destination: Int, renumbered: Int = 0) {
        self.source = source
        self.copied = copied
        self.alreadyThere = alreadyThere
        self.destination = destination
        self.renumbered = renumbered
    }
}

extension PostgresLedger {
    /// Copies the check-ins `venue` (nil: every venue) has in `source` (a SQLite ledger that
    /// outgrew its host) into this ledger, in one transaction: all or nothing. Idempotent: a
    /// check-in is copied unless an identical one (every column but the id) is already here as
    /// often as the source has it, so running the copy again copies nothing, and check-ins
    /// recorded here meanwhile are kept. The duplicate keys follow (a device that checked in on
    /// the old host a minute ago is "already checked in" on the new one). Checks the counts:
    /// every check-in the source holds is here afterwards, or nothing is committed.
    ///
    /// A copied check-in keeps the id it showed (a visitor's receipt number still opens and
    /// erases it): its row id here is the one this ledger's key turns into that id, wherever
    /// in 1...2^48 that falls. The identity goes on giving small row ids; the rare one an
    /// imported row holds is skipped when recording (`recordTries`).
    ///
    /// `audit` makes the copy's audit entry of its report (an operator's `import`): appended in
    /// the copy's transaction, so a copy the log cannot take is not committed either.
    public func copy(from source: any VisitLog, venue: VenueID?,
                     audit: (@Sendable (LedgerCopyReport) -> AuditEntry)? = nil) async throws(LedgerError) -> LedgerCopyReport {
        let selection = CheckInQuery(venue: venue)
        let expected = try await source.count(selection)
        let sql = sql
        return try await pool.holding { held throws(LedgerError) in
            try await held.run { connection throws(LedgerError) in
                try connection.execute("BEGIN")
                // One copy at a time: two at once could each find a check-in missing and both copy it.
                _ = try connection.query(LedgerSchema.lockLedger, [.int64(PostgresSchema.copyLock)])
            }
            do throws(LedgerError) {
                var progress = CopyProgress()
                var position: LogPosition?
                while true {
                    // The source a page at a time (oldest first), each page inserted in one trip.
                    var page = selection
                    page.limit = LogPosition.pageSize
                    let rows = try await source.checkIns(page, after: position)
                    progress = try await held.run { [progress] connection throws(LedgerError) in
                        var progress = progress
                        for checkIn in rows { try progress.insert(checkIn, on: connection, sql) }
                        return progress
                    }
                    guard rows.count == LogPosition.pageSize, let last = rows.last else { break }
                    position = LogPosition(after: last)
                }
                let done = progress
                let report = try await held.run { connection throws(LedgerError) in
                    guard done.copied + done.alreadyThere == expected else {
                        throw LedgerError(.failed, "the source held \(expected) check-ins when counted but \(done.copied + done.alreadyThere) when copied (is a server still writing to it?); nothing was copied")
                    }
                    _ = try connection.query(LedgerSchema.copyPresence(venue: venue != nil), venue.map { [.text($0.rawValue)] } ?? [])
                    let total = try sql.count(selection, on: PostgresSession(connection, repeatable: false))
                    guard total >= expected else {
                        throw LedgerError(.failed, "after the copy PostgreSQL holds \(total) check-ins, fewer than the source's \(expected); nothing was copied")
                    }
                    let report = LedgerCopyReport(source: expected, copied: done.copied, alreadyThere: done.alreadyThere, destination: total,
                                                  renumbered: done.renumbered)
                    if let audit { _ = try sql.appendAudit(audit(report), on: PostgresSession(connection, repeatable: false)) }
                    // A lost connection here leaves the outcome unknown: the copy is idempotent, run it again.
                    try connection.execute("COMMIT")
                    return report
                }
                return report
            } catch {
                try? await held.run { connection throws(LedgerError) in try connection.execute("ROLLBACK") }
                throw error
            }
        }
    }
}

/// How far a copy is: what it copied, what was there already, what got new ids, and the
/// occurrences of each check-in at the moment being copied.
private struct CopyProgress: Sendable {
    var copied = 0, alreadyThere = 0, renumbered = 0
    /// Identical check-ins share their time, and the source is read in time order: counting the
    /// occurrences within one millisecond is enough to tell a row's second copy from a second row.
    var moment: Int64?
    var seen: [NewCheckIn: Int64] = [:]

    /// Copies `checkIn` unless it is here already as often as the source had it so far.
    mutating func insert(_ checkIn: CheckIn, on connection: PostgresConnection, _ sql: SQLLedger) throws(LedgerError) {
        if moment != checkIn.time.milliseconds {
            moment = checkIn.time.milliseconds
            seen.removeAll(keepingCapacity: true)
        }
        let occurrence = seen[checkIn.entry, default: 0]
        seen[checkIn.entry] = occurrence + 1
        guard let row = sql.ids.rowID(shown: checkIn.id) else {
            throw LedgerError(.corrupt, "the source shows check-in id \(checkIn.id), which no ledger shows")
        }
        let inserted = try connection.query(LedgerSchema.copyCheckIn, (LedgerRows.values(checkIn.entry)
                                         + [.integer(occurrence), .integer(row), .integer(checkIn.exit?.time.milliseconds),
                                            .text(checkIn.exit?.kind.rawValue)]).map(PostgresParameter.init))
        if inserted.rowCount == 1 {
            copied += 1
            if try inserted.int64(0, 0) != row { renumbered += 1 }
        } else {
            alreadyThere += 1
        }
    }
}
