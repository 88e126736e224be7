import CheckInServerDomain
import Dispatch
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
    }

    private let connection: SQLiteConnection
    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "qrcheckin-server.ledger-writer")

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `work` inside a write transaction and returns its value once that has committed.
    func perform<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let job = Job(work)
        let startsDrain = pending.withLock { pending in
            pending.jobs.append(job)
            defer { pending.draining = true }
            return !pending.draining
        }
        if startsDrain { queue.async { self.drain() } }
        return try job.wait()
    }

    /// Commits batches until nothing is pending.
    private func drain() {
        while true {
            let batch: [any WriteJob] = pending.withLock { pending in
                let count = min(pending.jobs.count, Self.batchLimit)
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
            for job in batch { job.finish(nil) }
        } catch {
            for job in batch { job.finish(error) }
        }
    }
}

/// One write waiting for its transaction.
private protocol WriteJob: AnyObject, Sendable {
    /// Does the write inside the open transaction.
    func execute(_ connection: SQLiteConnection) throws(LedgerError)
    /// The transaction committed (nil) or failed: wakes the caller.
    func finish(_ error: LedgerError?)
}

/// A write returning `T`: its value is released to the caller only after the commit.
private final class Job<T: Sendable>: WriteJob, @unchecked Sendable {
    private let work: @Sendable (SQLiteConnection) throws(LedgerError) -> T
    /// Written by the writer thread before `finish` signals; read by the caller after.
    private var value: T?
    private var result: Result<T, LedgerError>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) {
        self.work = work
    }

    func execute(_ connection: SQLiteConnection) throws(LedgerError) {
        value = try work(connection)
    }

    func finish(_ error: LedgerError?) {
        if let error {
            result = .failure(error)
        } else if let value {
            result = .success(value)
        } else {
            result = .failure(LedgerError(.failed, "a write of the batch did not run"))
        }
        done.signal()
    }

    func wait() throws(LedgerError) -> T {
        done.wait()
        return try result!.get()
    }
}
