import ServerDomain
import SharedAsync
import Synchronization

/// The one connection that writes, on a thread of its own, with group commit: writes that
/// arrive while a commit is under way wait and go together into the next transaction, so under
/// load one commit (one fsync with `synchronous = FULL`) covers many check-ins. Each caller's
/// task is resumed right after the commit that holds its write, from this thread (no queue in
/// between: the task goes on on Swift's pool while this thread commits the next batch); when
/// the transaction fails, every write in it fails and none is acknowledged.
final class SQLiteWriter: Sendable {
    /// Writes in one transaction at most (a bound on latency when a flood arrives at once).
    static let batchLimit = 256

    private struct Pending: ~Copyable {
        var jobs: [WriteJob] = []
        var draining = false
        /// Jobs in `jobs` that run alone (operators' actions: rare), so a flood of check-ins
        /// is batched without looking for one.
        var alone = 0
    }

    private let connection: SQLiteConnection
    private let pending = Mutex(Pending())
    /// The writer's own thread: a pool of one, so that its blocking commits never run on
    /// Swift's cooperative threads, and a drain is queued, never waited for.
    private let thread: BlockingPool

    init(connection: SQLiteConnection) throws(LedgerError) {
        self.connection = connection
        do {
            thread = try BlockingPool(threads: 1, name: "ledger-writer")
        } catch {
            throw LedgerError(.failed, "cannot start the ledger's writer: \(error)")
        }
    }

    /// Runs `work` inside a write transaction (batched with others) and returns its value once
    /// that has committed. `alone`: in a transaction of its own, batched with no other write: an
    /// operator's action and its audit entry, whose failure (a full disk, a body that throws)
    /// must fail no visitor's check-in, and whose commit no visitor's failure may undo.
    func perform<T: Sendable>(alone: Bool = false, _ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, LedgerError>, Never>) in
            submit(work, alone: alone) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Runs `work` inside a write transaction and hands its value (or the failure) to
    /// `completion` once that transaction has committed (or failed), on the writer's thread.
    func submit<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T, alone: Bool = false,
                             completion: @escaping @Sendable (Result<T, LedgerError>) -> Void) {
        let job = WriteJob(alone: alone) { connection throws(LedgerError) in
            let value = try work(connection)
            return { completion(.success(value)) }
        } failed: { error in
            completion(.failure(error))
        }
        let startsDrain = pending.withLock { pending in
            pending.jobs.append(job)
            if alone { pending.alone += 1 }
            defer { pending.draining = true }
            return !pending.draining
        }
        guard startsDrain else { return }
        if !thread.execute({ self.drain() }) {
            // The ledger is closing: nothing more is written.
            let refused = pending.withLock { pending in
                defer { pending = Pending() }
                return pending.jobs
            }
            for job in refused { job.finish(LedgerError(.unavailable, "\(connection.path): the ledger is closed")) }
        }
    }

    /// Returns once every write submitted so far has committed (or failed) and its caller has
    /// been told: queued behind the drain under way, which empties the queue before it ends.
    func finish() async {
        _ = try? await thread.run { () throws(Never) in }
    }

    /// Finishes the writes submitted so far, then ends the thread: later writes fail.
    func close() async {
        await thread.shutdown()
    }

    /// Commits batches until nothing is pending.
    private func drain() {
        while true {
            var batch: [WriteJob] = pending.withLock { pending in
                // A job that runs alone is a batch of one; the batch before it ends where it waits.
                let count: Int
                if pending.alone == 0 {
                    count = min(pending.jobs.count, Self.batchLimit)
                } else if pending.jobs.first?.alone == true {
                    count = 1
                    pending.alone -= 1
                } else {
                    count = min(pending.jobs.firstIndex { $0.alone } ?? pending.jobs.count, Self.batchLimit)
                }
                let batch = Array(pending.jobs.prefix(count))
                pending.jobs.removeFirst(count)
                if batch.isEmpty { pending.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            let answers = commit(batch)
            // The works go before anyone is told: what they hold (an operator action's holds the
            // ledger) must not keep the ledger open (and its write-ahead log unmerged) after a
            // command that returns at once has exited.
            batch = []
            for answer in answers { answer() }
        }
    }

    /// One transaction of `batch`: every job's work, then COMMIT; returns how to tell each
    /// caller its value (only now, after the commit), or tells every caller the failure.
    private func commit(_ batch: [WriteJob]) -> [@Sendable () -> Void] {
        var answers: [@Sendable () -> Void] = []
        answers.reserveCapacity(batch.count)
        do throws(LedgerError) {
            try connection.executeKept("BEGIN IMMEDIATE")
            do throws(LedgerError) {
                for job in batch { answers.append(try job.work(connection)) }
                try connection.executeKept("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            for job in batch { job.finish(error) }
            return []
        }
        return answers
    }
}

/// One write waiting for its transaction: its work (which returns how to tell its caller, once
/// committed) and how to tell a failure. Values only: it crosses from the caller to the writer
/// thread once, and each closure runs once, there.
private struct WriteJob: Sendable {
    let alone: Bool
    let work: @Sendable (SQLiteConnection) throws(LedgerError) -> @Sendable () -> Void
    let failed: @Sendable (LedgerError) -> Void

    init(alone: Bool, work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> @Sendable () -> Void,
         failed: @escaping @Sendable (LedgerError) -> Void) {
        self.alone = alone
        self.work = work
        self.failed = failed
    }

    func finish(_ error: LedgerError) {
        failed(error)
    }
}
