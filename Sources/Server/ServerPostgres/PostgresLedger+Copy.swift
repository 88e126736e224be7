import ServerDomain
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
    public func copy(from source: any CheckInLedger, venue: VenueID?,
                     audit: ((LedgerCopyReport) -> AuditEntry)? = nil) throws(LedgerError) -> LedgerCopyReport {
        let selection = CheckInQuery(venue: venue)
        let expected = try source.count(selection)
        return try withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in
                // One copy at a time: two at once could each find a check-in missing and both copy it.
                _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [.int64(PostgresSchema.copyLock)])
                var copied = 0, alreadyThere = 0, renumbered = 0
                var failure: LedgerError?
                // Identical check-ins share their time, and the export is in time order: counting
                // the occurrences within one millisecond is enough to tell a row's second copy
                // from a second row.
                var moment: Int64?
                var seen: [NewCheckIn: Int64] = [:]
                try source.export(selection) { checkIn in
                    if moment != checkIn.time.milliseconds {
                        moment = checkIn.time.milliseconds
                        seen.removeAll(keepingCapacity: true)
                    }
                    let occurrence = seen[checkIn.entry, default: 0]
                    seen[checkIn.entry] = occurrence + 1
                    do throws(LedgerError) {
                        guard let row = ids.rowID(shown: checkIn.id) else {
                            throw LedgerError(.corrupt, "the source shows check-in id \(checkIn.id), which no ledger shows")
                        }
                        let inserted = try connection.query(Self.copyCheckIn, PostgresRows.parameters(checkIn.entry)
                                                         + [.int64(occurrence), .int64(row), .int64(checkIn.exit?.time.milliseconds),
                                                            .text(checkIn.exit?.kind.rawValue)])
                        if inserted.rowCount == 1 {
                            copied += 1
                            if try inserted.int64(0, 0) != row { renumbered += 1 }
                        } else {
                            alreadyThere += 1
                        }
                        return true
                    } catch {
                        failure = error
                        return false
                    }
                }
                if let failure { throw failure }
                guard copied + alreadyThere == expected else {
                    throw LedgerError(.failed, "the source held \(expected) check-ins when counted but \(copied + alreadyThere) when copied (is a server still writing to it?); nothing was copied")
                }
                _ = try connection.query(Self.copyPresence(venue: venue != nil), venue.map { [.text($0.rawValue)] } ?? [])
                let destination = PostgresSelection(selection, columns: "count(*)", ordered: false)
                let total = Int(try connection.query(destination.sql, destination.parameters).int64(0, 0) ?? 0)
                guard total >= expected else {
                    throw LedgerError(.failed, "after the copy PostgreSQL holds \(total) check-ins, fewer than the source's \(expected); nothing was copied")
                }
                let report = LedgerCopyReport(source: expected, copied: copied, alreadyThere: alreadyThere, destination: total, renumbered: renumbered)
                if let audit { _ = try Self.appendAudit(audit(report), connection) }
                return report
            }
        }
    }

    /// Inserts $1…$8, the source's occurrence $9 (0 the first) of this check-in, unless
    /// PostgreSQL already holds more than $9 identical ones, at row id $10 (the one that shows
    /// the id the source showed) unless a row holds it: then at the identity's next; with the
    /// source's exit, $11 (ms) and $12 (its kind), or none. Returns the row id.
    static let copyCheckIn = """
        INSERT INTO checkins (id, venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator, exit_ms, exit_kind)
        SELECT CASE WHEN EXISTS (SELECT 1 FROM checkins WHERE id = $10) THEN nextval(pg_get_serial_sequence('checkins', 'id')) ELSE $10 END,
               $1, $2, $3, $4, $5, $6, $7, $8, $11, $12
        WHERE (SELECT count(*) FROM checkins WHERE venue = $1 AND at_ms = $2 AND method = $3
               AND window_age IS NOT DISTINCT FROM $4 AND device IS NOT DISTINCT FROM $5
               AND visitor_name IS NOT DISTINCT FROM $6 AND visitor_phone IS NOT DISTINCT FROM $7
               AND operator IS NOT DISTINCT FROM $8) <= $9
        RETURNING id
        """

    /// The duplicate keys of the check-ins now here: each device's latest open check-in per
    /// venue (the one that opened its duplicate time; an exit released its key), unless a later
    /// one already holds the key.
    /// With `venue`, only that venue's ($1).
    static func copyPresence(venue: Bool) -> String {
        """
        INSERT INTO presence (venue, device, at_ms)
        SELECT venue, device, max(at_ms) FROM checkins WHERE device IS NOT NULL AND exit_ms IS NULL\(venue ? " AND venue = $1" : "")
        GROUP BY venue, device
        ON CONFLICT (venue, device) DO UPDATE SET at_ms = excluded.at_ms WHERE presence.at_ms < excluded.at_ms
        """
    }
}
