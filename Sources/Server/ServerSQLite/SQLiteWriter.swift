import Dispatch
import ServerDomain
import SharedSystem
import Synchronization

/// The one connection that writes, with group commit: writes that arrive while a commit is
/// under way wait and go together into the next transaction, so under load one commit (one
/// fsync with `synchronous = FULL`) covers many check-ins. Every caller waits until its
/// transaction has committed; when the transaction fails, every write in it fails and none is
/// acknowledged.
final class SQLiteWriter: Sendable {
    /// Writes in one transaction at most (a bound on latency when a flood arrives at once).
    static let batchLimit = 256

    private struct Pending: ~Copyable {
        var jobs: [any WriteJob] = []
        var draining = false
        /// Jobs in `jobs` that run alone (operators' actions: rare), so a flood of check-ins
        /// is batched without looking for one.
        var alone = 0
    }

    private let connection: SQLiteConnection
    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "qrcheckin-server.ledger-writer")
    /// Where a committed batch's callers are told (their pages built, their connections woken):
    /// beside the writer, which meanwhile commits the next batch.
    private let completions = DispatchQueue(label: "qrcheckin-server.ledger-completions")

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `work` inside a write transaction and returns its value once that has committed.
    func perform<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try Rendezvous.wait { submit(work, completion: $0) }.get()
    }

    /// Runs `work` inside a write transaction of its own, batched with no other write, and
    /// returns its value once that has committed: an operator's action and its audit entry,
    /// whose failure (a full disk, a body that throws) must fail no visitor's check-in, and
    /// whose commit no visitor's failure may undo.
    func performAlone<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try Rendezvous.wait { submit(work, alone: true, completion: $0) }.get()
    }

    /// Runs `work` inside a write transaction and hands its value (or the failure) to
    /// `completion` once that transaction has committed (or failed), on the completions' thread.
    func submit<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T, alone: Bool = false,
                             completion: @escaping @Sendable (Result<T, LedgerError>) -> Void) {
        let job = Job(work, alone: alone, completion: completion)
        let startsDrain = pending.withLock { pending in
            pending.jobs.append(job)
            if alone { pending.alone += 1 }
            defer { pending.draining = true }
            return !pending.draining
        }
        if startsDrain { queue.async { self.drain() } }
    }

    /// Returns once every write submitted so far has committed (or failed) and its caller has
    /// been told: the drain under way empties the queue before it ends.
    func finish() {
        queue.sync {}
        completions.sync {}
    }

    /// Commits batches until nothing is pending.
    private func drain() {
        while true {
            let batch: [any WriteJob] = pending.withLock { pending in
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
            commit(batch)
        }
    }

    private func commit(_ batch: [any WriteJob]) {
        do throws(LedgerError) {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(LedgerError) {
                for job in batch { try job.execute(connection) }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            completions.async { for job in batch { job.finish(nil) } }
        } catch {
            completions.async { for job in batch { job.finish(error) } }
        }
    }
}

/// One write waiting for its transaction.
private protocol WriteJob: AnyObject, Sendable {
    /// Whether the job commits in a transaction of its own (`performAlone`).
    var alone: Bool { get }
    /// Does the write inside the open transaction.
    func execute(_ connection: SQLiteConnection) throws(LedgerError)
    /// The transaction committed (nil) or failed: wakes the caller.
    func finish(_ error: LedgerError?)
}

/// A write returning `T`: its value is released only after the commit.
private final class Job<T: Sendable>: WriteJob, @unchecked Sendable {
    /// Dropped once run: what it holds (an operator action's closure holds the ledger) goes
    /// before the caller is told, so a command that returns at once leaves nothing behind that
    /// keeps the ledger open (and its write-ahead log unmerged) at exit.
    private var work: (@Sendable (SQLiteConnection) throws(LedgerError) -> T)?
    private let completion: @Sendable (Result<T, LedgerError>) -> Void
    let alone: Bool
    /// Written by the writer's thread, read after the commit by the completions' (the dispatch orders them).
    private var value: T?

    init(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T, alone: Bool,
         completion: @escaping @Sendable (Result<T, LedgerError>) -> Void) {
        self.work = work
        self.alone = alone
        self.completion = completion
    }

    func execute(_ connection: SQLiteConnection) throws(LedgerError) {
        guard let work else { throw LedgerError(.failed, "a write of the batch ran twice") }
        self.work = nil
        value = try work(connection)
    }

    func finish(_ error: LedgerError?) {
        if let error {
            completion(.failure(error))
        } else if let value {
            completion(.success(value))
        } else {
            completion(.failure(LedgerError(.failed, "a write of the batch did not run")))
        }
    }
}
