import Glibc
import SharedSystem
import Synchronization

/// A fixed set of threads of our own for blocking work (SQLite, libpq, Argon2id, a blocking
/// read), behind an `async` call: swift-nio's `NIOThreadPool.runIfActive`. Swift's cooperative
/// pool has one thread per core (two here): one blocking call on it stalls half the program,
/// so nothing blocking may run there. `run` suspends the calling task (no thread waits) until
/// a pool thread has run the work, first come first served.
///
/// - Cancellation: work not yet begun when its task is cancelled is taken out of the queue
///   and never runs (`run` throws `.cancelled`); work that has begun runs to its end and `run`
///   returns its value, cancelled or not. So the caller always knows whether the work happened
///   (a write either committed and was answered, or never began): a blocking C call cannot be
///   stopped halfway anyway, and a queue of reads for requests nobody waits for any more (at a
///   deadline, under overload) is not worth the threads' time. NIO's `runIfActive` runs queued
///   work whatever the task; we refuse it, as an unstarted `Task.sleep` does.
/// - Fairness: one FIFO queue; a free thread takes the oldest work. No priorities, no stealing.
/// - Bound: never more than `threads` works at once (one per thread).
/// - Shutdown: `shutdown()` refuses new work (`.closed`), lets the queued work finish, and
///   returns when every thread has left its loop: the last one out joins the others and
///   detaches itself (it is returning as `shutdown()` does), so no task ever blocks in
///   `pthread_join`. Dropping the pool without `shutdown()` does the same without waiting.
public final class BlockingPool: Sendable {
    /// The number of threads: the most works that run at once.
    public let threads: Int
    /// The threads' name (`ps -L`, gdb).
    public let name: String
    private let core: PoolCore
    /// Each work's number, so a cancelled task finds its own work in the queue.
    private let nextID = Atomic<UInt64>(0)

    /// Starts `threads` threads called `name`. Throws when the system refuses a thread (the
    /// threads already started are stopped).
    public init(threads: Int, name: String = "blocking") throws(SystemError) {
        precondition(threads > 0, "a blocking pool needs at least one thread")
        self.threads = threads
        self.name = name
        core = PoolCore()
        var started: [pthread_t] = []
        for index in 0..<threads {
            do {
                let core = core
                started.append(try SystemThread.start(name: "\(name)-\(index)") { core.work() })
            } catch {
                core.start(started)
                core.close()
                throw error
            }
        }
        core.start(started)
    }

    deinit {
        // Nobody can call `run` any more; the threads finish the queue and free themselves.
        core.close()
    }

    /// Runs `work` on a pool thread and returns its value; the calling task is suspended
    /// meanwhile (no thread waits). Throws `.failed` with the work's own error, `.closed` after
    /// `shutdown()`, `.cancelled` when the task was cancelled before the work began (the work
    /// then never runs). Costs two thread wake-ups when the pool is idle, less when it is busy
    /// (`scripts/bench-pool`; docs/BENCHMARKS.md, "The blocking pool"); nothing when the task
    /// already runs on one of the pool's threads (a one-shot command's, `CommandExecutor`): the
    /// work runs there and then, the thread being one of the bound's. Spell the work's error
    /// type (`{ () throws(LedgerError) in … }`): Swift 6.3 infers `any Error` for a throwing
    /// closure otherwise.
    public func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(BlockingPoolError<Failure>) -> Value {
        let core = core
        if core.isCurrentThread {
            if core.isClosed { throw .closed }
            if Task.isCancelled { throw .cancelled }
            do throws(Failure) {
                return try work()
            } catch {
                throw .failed(error)
            }
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, BlockingPoolError<Failure>>, Never>) in
                let job = PoolJob(id: id) { refusal in
                    if let refusal {
                        continuation.resume(returning: .failure(refusal == .closed ? .closed : .cancelled))
                        return
                    }
                    do throws(Failure) {
                        continuation.resume(returning: .success(try work()))
                    } catch {
                        continuation.resume(returning: .failure(.failed(error)))
                    }
                }
                // Checked under the lock that the cancellation handler takes too: a task
                // cancelled before this point is refused here, one cancelled after finds its
                // job in the queue (or already begun).
                if let refusal = core.enqueue(job, cancelled: { Task.isCancelled }) { job.body(refusal) }
            }
        } onCancel: {
            core.remove(id)?.body(.cancelled)
        }
        return try result.get()
    }

    /// Runs `work` on a pool thread without waiting for it (NIO's `NIOThreadPool.submit`): for
    /// work begun where no task waits, a thread of our own or a C callback (a SQLite commit's
    /// checkpoint request, a refused scan kept for the log). In the queue's order with `run`'s
    /// work. Returns false, and `work` never runs, once the pool is shut down.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let job = PoolJob(id: nextID.add(1, ordering: .relaxed).newValue) { refusal in
            if refusal == nil { work() }
        }
        return core.enqueue(job, cancelled: { false }) == nil
    }

    /// Runs `work` as `run(_:)` does, throwing the work's own error type: `refused` turns a
    /// refusal (`.closed`, `.cancelled`) into one, so a caller with one error type
    /// (`LedgerError`) needs no second `catch`.
    public func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value, refused: (BlockingPoolError<Never>) -> Failure
    ) async throws(Failure) -> Value {
        do {
            return try await run(work)
        } catch .failed(let failure) {
            throw failure
        } catch {
            throw refused(error.refusal!)
        }
    }

    /// Refuses new work, lets the queued work finish, and returns when every thread has
    /// finished its last work (all joined but the last, which frees itself as this returns).
    /// Suspends (no thread waits). Calling it again, or from several tasks, is harmless.
    public func shutdown() async {
        let core = core
        await withCheckedContinuation { continuation in
            core.close(then: continuation)
        }
    }

    /// Whether the calling thread is one of the pool's (where `run` runs its work at once).
    public var isCurrentThread: Bool { core.isCurrentThread }

    /// The works queued and not yet begun (for tests and metrics).
    public var queued: Int { core.queued }
}

/// Why queued work is refused.
enum PoolRefusal: Sendable, Equatable {
    case closed, cancelled
}

/// One work in the queue: its number and what runs it (nil) or refuses it.
struct PoolJob: Sendable {
    let id: UInt64
    let body: @Sendable (PoolRefusal?) -> Void
}
