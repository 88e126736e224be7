import CLinux
import Glibc
import SharedSystem
import Synchronization

/// Where a one-shot command's task runs (`AsyncCommandLineTool`, every command but one that
/// serves): on a thread of its own until the command adopts a `BlockingPool` (its ledger's,
/// when it opens one), then on that pool's threads, where the pool's own work runs inline
/// (`BlockingPool.run` on one of its threads).
///
/// Why: a command is one task that mostly waits for its ledger. An export calls the ledger
/// once a page; run from Swift's pool, each call woke a pool thread and each answer woke a
/// thread of Swift's (two wake-ups a page, the work moving between cores about 70 times in a
/// 300,000-row export): 2-7 % of an export's CPU over the same instructions (docs/BENCHMARKS.md,
/// "A command on its ledger's threads"). On the pool's thread the task and its ledger share one
/// thread and one core's caches. Nothing blocking moves to Swift's pool: the task runs only on threads
/// meant for blocking work. A server (`serve`) keeps its requests on Swift's pool, as the
/// model says (DEVELOPMENT.md).
///
/// Every job runs as this executor's, on a thread of its own or the adopted pool's, never as
/// Swift's global executor's: a job the global executor ran would leave the task there (a
/// continuation resumes, and `Task.yield` requeues, on the executor that ran it).
public final class CommandExecutor: TaskExecutor {
    /// The executor of the command the current task is running, if it has one.
    @TaskLocal public static var current: CommandExecutor?

    /// The thread the task runs on before it adopts a pool, and after that pool is shut down.
    private let own: BlockingPool
    private let adopted = Mutex<BlockingPool?>(nil)

    /// Starts the executor's own thread (`command-0`).
    public init() throws(SystemError) {
        own = try BlockingPool(threads: 1, name: "command")
    }

    /// Runs the task's work on `pool`'s threads from now on. The first pool adopted stays (a
    /// command that opens a second ledger, `import`, runs on its first's threads); once it is
    /// shut down, the work goes back to the executor's own thread.
    public func adopt(_ pool: BlockingPool) {
        adopted.withLock { if $0 == nil { $0 = pool } }
    }

    /// The pool adopted, if any.
    public var pool: BlockingPool? { adopted.withLock { $0 } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let run: @Sendable () -> Void = { job.runSynchronously(on: executor) }
        if let pool, pool.execute(run) { return }
        if own.execute(run) { return }
        // Only once `run` has returned (its own thread shut down): whatever is left of the task
        // (its last steps out of the preference) runs on Swift's pool.
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }

    /// Runs `operation` as the current task's command: with this executor preferred and
    /// `current`; the executor's own thread ends after it.
    public func run<Value>(_ operation: () async -> Value) async -> Value {
        let value = await Self.$current.withValue(self) {
            await withTaskExecutorPreference(self) { await operation() }
        }
        await own.shutdown()
        return value
    }

    /// Before a one-shot command's threads start (`AsyncCommandLineTool.main`): one malloc heap
    /// for the whole process. glibc gives each thread that allocates a heap of its own (up to 8
    /// a core), for threads that allocate at the same time; a command's task allocates on one
    /// thread at a time (its own until it opens its ledger, then the ledger's), and a second heap
    /// is 1-3 MiB more touched memory and its own page faults (measured with the pool: about a
    /// point of an export's CPU). `serve` keeps glibc's default (`AllocatorTuning`).
    public static func shareOneHeap() {
        _ = mallopt(clinux_m_arena_max(), 1)
    }
}
