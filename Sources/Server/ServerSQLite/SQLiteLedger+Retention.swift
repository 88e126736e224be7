import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Retention on SQLite: purges that delete for real (secure_delete, incremental vacuum, the WAL
/// truncated) in batches that let check-ins in between, tallies, and the kept daily counts.
extension SQLiteLedger {
    /// Check-ins deleted in one write transaction at most: a first purge of a year's log must
    /// not hold the writer (and every visitor's check-in) for half a minute.
    public static let purgeBatch = 10_000

    public func purge(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        if request.dryRun {
            // A dry run reads: it takes no lock and cannot change a byte.
            return try readers.read { connection throws(LedgerError) in
                PurgeReport(checkIns: try Self.delete("checkins", before: request.checkInsBefore, dryRun: true, connection),
                            refusals: try Self.delete("refusals", before: request.refusalsBefore, dryRun: true, connection))
            }
        }
        var checkIns = 0
        while true {
            // The oldest batch's rows, their counts kept in the transaction that deletes them.
            let (deleted, done) = try writer.perform { connection throws(LedgerError) in
                let bound = try Self.batchBound("checkins", before: request.checkInsBefore, connection)
                let cutoff = bound ?? request.checkInsBefore
                if request.keepsCounts {
                    let keep = try connection.statement(Self.keepDailyCounts)
                    try keep.bind(1, cutoff.milliseconds)
                    try keep.bind(2, Int64(request.dayOffsetSeconds) * 1000)
                    try keep.run()
                }
                let deleted = try Self.delete("checkins", before: cutoff, dryRun: false, connection)
                _ = try Self.delete("presence", before: cutoff, dryRun: false, connection)
                return (deleted, bound == nil)
            }
            checkIns += deleted
            if done { break }
        }
        var refusals = 0
        while true {
            let (deleted, done) = try writer.perform { connection throws(LedgerError) in
                let bound = try Self.batchBound("refusals", before: request.refusalsBefore, connection)
                return (try Self.delete("refusals", before: bound ?? request.refusalsBefore, dryRun: false, connection), bound == nil)
            }
            refusals += deleted
            if done { break }
        }
        if checkIns + refusals > 0 {
            // secure_delete has overwritten the deleted rows; hand their pages back to the file
            // system (the file shrinks at the checkpoint after the commit).
            try writer.perform { connection throws(LedgerError) in
                if try connection.integer("PRAGMA auto_vacuum") == Self.incrementalVacuum {
                    try connection.execute("PRAGMA incremental_vacuum")
                }
            }
            compact()
        }
        return PurgeReport(checkIns: checkIns, refusals: refusals)
    }

    /// Where this batch of `table`'s rows before `cutoff` ends: just after the time of the
    /// `purgeBatch`-th oldest (rows of that very millisecond go too, so every batch progresses),
    /// or nil when fewer are left (the batch is the last, up to `cutoff`).
    private static func batchBound(_ table: String, before cutoff: WallTime, _ connection: SQLiteConnection) throws(LedgerError) -> WallTime? {
        let select = try connection.statement("SELECT at_ms FROM \(table) WHERE at_ms < ?1 ORDER BY at_ms LIMIT 1 OFFSET ?2")
        defer { select.reset() }
        try select.bind(1, cutoff.milliseconds)
        try select.bind(2, Int64(purgeBatch - 1))
        guard try select.step(), let time = select.int64(0) else { return nil }
        return WallTime(milliseconds: min(cutoff.milliseconds, time + 1))
    }

    /// After a purge's commit: copies the WAL into the database and truncates both, so the
    /// deleted rows' pages leave the WAL and the file shrinks now rather than at some later
    /// checkpoint. A database made without incremental auto-vacuum is vacuumed whole. Best
    /// effort: the rows are already gone; a reader in the middle of a long export only delays
    /// the shrinking until the next checkpoint.
    func compact() {
        // On the checkpointer's thread: a checkpoint under way there would make this one fail
        // at once (SQLite never waits for another checkpointer), leaving the old pages in the WAL.
        checkpointer.withConnection { connection in
            if let mode = try? connection.integer("PRAGMA auto_vacuum"), mode != Self.incrementalVacuum {
                try? connection.execute("VACUUM")
            }
            try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func tally(_ query: CheckInQuery) throws(LedgerError) -> [CheckInTally] {
        var unlimited = query
        unlimited.limit = nil
        return try readers.read { connection throws(LedgerError) in
            let (sql, bind) = Self.selection(unlimited, columns: "venue, \(LedgerSchema.quarterOfRow), count(*)", ordered: false)
            let select = try connection.statement(sql + " GROUP BY 1, 2")
            defer { select.reset() }
            try bind(select)
            var tallies: [CheckInTally] = []
            while try select.step() {
                guard let venue = select.text(0).flatMap({ try? VenueID($0) }), let quarter = select.int64(1) else {
                    throw LedgerError(.corrupt, "\(path): a check-in has a venue no ledger writes")
                }
                tallies.append(CheckInTally(venue: venue, quarter: WallTime(milliseconds: quarter * CheckInTally.quarterMilliseconds),
                                            count: Int(select.int64(2) ?? 0)))
            }
            return tallies
        }
    }

    public func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.selectKeptCounts)
            defer { select.reset() }
            try select.bind(1, venue?.rawValue)
            var counts: [DailyCount] = []
            while try select.step() {
                guard let venue = select.text(0).flatMap({ try? VenueID($0) }), let day = select.int64(1) else {
                    throw LedgerError(.corrupt, "\(path): a kept count has a venue no ledger writes")
                }
                counts.append(DailyCount(venue: venue, day: CalendarDay(daysSince1970: day), count: Int(select.int64(2) ?? 0)))
            }
            return counts
        }
    }

    private static let keepDailyCounts = SQLDialect.sqlite.render(LedgerSchema.keepDailyCounts)
    private static let selectKeptCounts = SQLDialect.sqlite.render(LedgerSchema.selectKeptCounts)
}
