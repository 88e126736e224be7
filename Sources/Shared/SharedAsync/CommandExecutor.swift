import Synchronization

/// Where a one-shot command's task runs (`AsyncCommandLineTool`, every command but one that
/// serves): on Swift's pool until the command adopts a `BlockingPool` (its ledger's, when it
/// opens one), then on that pool's threads, where the pool's own work runs inline
/// (`BlockingPool.run` on one of its threads).
///
/// Why: a command is one task that mostly waits for its ledger. An export calls the ledger
/// once a page; run from Swift's pool, each call woke a pool thread and each answer woke a
/// thread of Swift's (two wake-ups a page, the work moving between cores 87 times in a 300,000-row
/// export, and a second malloc heap for the same bytes): 2-5 % of an export's CPU over the
/// same instructions (docs/BENCHMARKS.md, "A command on its ledger's threads"). On the pool's
/// thread the task and its ledger share one thread, one core's caches and one heap. Nothing
/// blocking moves to Swift's pool: the task runs only on threads meant for blocking work.
/// A server (`serve`) keeps its requests on Swift's pool, as the model says (DEVELOPMENT.md).
public final class CommandExecutor: TaskExecutor {
    /// The executor of the command the current task is running, if it has one.
    @TaskLocal public static var current: CommandExecutor?

    private let adopted = Mutex<BlockingPool?>(nil)

    public init() {}

    /// Runs the task's work on `pool`'s threads from now on. The first pool adopted stays (a
    /// command that opens a second ledger, `import`, runs on its first's threads); once it is
    /// shut down, the work goes back to Swift's pool.
    public func adopt(_ pool: BlockingPool) {
        adopted.withLock { if $0 == nil { $0 = pool } }
    }

    /// The pool adopted, if any.
    public var pool: BlockingPool? { adopted.withLock { $0 } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        if let pool, pool.execute({ job.runSynchronously(on: executor) }) { return }
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }

    /// Runs `operation` as the current task's command: with this executor preferred and `current`.
    public func run<Value>(_ operation: () async -> Value) async -> Value {
        await Self.$current.withValue(self) {
            await withTaskExecutorPreference(self) { await operation() }
        }
    }
}
