import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// Retention on SQLite: purges that delete for real (secure_delete, incremental vacuum, the WAL
/// truncated) in batches that let check-ins in between.
extension SQLiteLedger {
    /// Check-ins deleted in one write transaction at most: a first purge of a year's log must
    /// not hold the writer (and every visitor's check-in) for half a minute.
    public static let purgeBatch = 10_000

    /// As `SQLEngine`'s purge, in batches of `purgeBatch` rows, oldest first, each its own
    /// commit. A task cancelled meanwhile (the server's deadline) stops between two batches:
    /// what was deleted stays deleted, the rest waits for the next purge.
    public func purge(_ request: PurgeRequest) async throws(LedgerError) -> PurgeReport {
        if request.dryRun {
            // A dry run reads: it takes no lock and cannot change a byte.
            return try await reading { [sql] session throws(LedgerError) in try sql.purgeDue(request, on: session) }
        }
        var checkIns = 0
        while !Task.isCancelled {
            // The oldest batch's rows, their counts kept in the transaction that deletes them.
            let (deleted, done) = try await writing { [sql] session throws(LedgerError) in
                let bound = try sql.batchBound(.checkins, before: request.checkInsBefore, size: Self.purgeBatch, on: session)
                return (try sql.deleteCheckIns(before: bound ?? request.checkInsBefore, request, on: session), bound == nil)
            }
            checkIns += deleted
            if done { break }
        }
        var refusals = 0
        while !Task.isCancelled {
            let (deleted, done) = try await writing { [sql] session throws(LedgerError) in
                let bound = try sql.batchBound(.refusals, before: request.refusalsBefore, size: Self.purgeBatch, on: session)
                return (try sql.delete(.refusals, before: bound ?? request.refusalsBefore, dryRun: false, on: session), bound == nil)
            }
            refusals += deleted
            if done { break }
        }
        if checkIns + refusals > 0 {
            // secure_delete has overwritten the deleted rows; hand their pages back to the file
            // system (the file shrinks at the checkpoint after the commit).
            try await writing { session throws(LedgerError) in try session.freePages() }
            await compact()
        }
        return PurgeReport(checkIns: checkIns, refusals: refusals)
    }

    /// After a purge's commit: copies the WAL into the database and truncates both, so the
    /// deleted rows' pages leave the WAL and the file shrinks now rather than at some later
    /// checkpoint. A database made without incremental auto-vacuum is vacuumed whole. Best
    /// effort: the rows are already gone; a reader in the middle of a long read only delays
    /// the shrinking until the next checkpoint.
    func compact() async {
        // On the checkpointer's thread: a checkpoint under way there would make this one fail
        // at once (SQLite never waits for another checkpointer), leaving the old pages in the WAL.
        await checkpointer.withConnection { connection in
            if let mode = try? connection.integer("PRAGMA auto_vacuum"), mode != Self.incrementalVacuum {
                try? connection.execute("VACUUM")
            }
            try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}

