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
            return try read { session throws(LedgerError) in try sql.purgeDue(request, on: session) }
        }
        var checkIns = 0
        while true {
            // The oldest batch's rows, their counts kept in the transaction that deletes them.
            let (deleted, done) = try write { sql, session throws(LedgerError) in
                let bound = try sql.batchBound(.checkins, before: request.checkInsBefore, size: Self.purgeBatch, on: session)
                return (try sql.deleteCheckIns(before: bound ?? request.checkInsBefore, request, on: session), bound == nil)
            }
            checkIns += deleted
            if done { break }
        }
        var refusals = 0
        while true {
            let (deleted, done) = try write { sql, session throws(LedgerError) in
                let bound = try sql.batchBound(.refusals, before: request.refusalsBefore, size: Self.purgeBatch, on: session)
                return (try sql.delete(.refusals, before: bound ?? request.refusalsBefore, dryRun: false, on: session), bound == nil)
            }
            refusals += deleted
            if done { break }
        }
        if checkIns + refusals > 0 {
            // secure_delete has overwritten the deleted rows; hand their pages back to the file
            // system (the file shrinks at the checkpoint after the commit).
            try write { _, session throws(LedgerError) in try session.freePages() }
            compact()
        }
        return PurgeReport(checkIns: checkIns, refusals: refusals)
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
        try read { session throws(LedgerError) in try sql.tally(query, on: session) }
    }

    public func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount] {
        try read { session throws(LedgerError) in try sql.keptCounts(venue: venue, on: session) }
    }
}

extension SQLiteLedger: VisitFlowLog {
    public func visitFlow(_ query: VisitFlowQuery) async throws(LedgerError) -> [VisitFlow] {
        try read { session throws(LedgerError) in try sql.visitFlow(query, on: session) }
    }
}
