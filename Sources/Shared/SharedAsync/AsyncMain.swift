/// The bridge from a synchronous `main` to async code: the program's work runs as a task on
/// Swift's pool while the main thread, which is not one of the pool's, waits for it.
///
/// Why not an `async` main: Swift's async main parks the main thread in libdispatch's
/// `dispatch_main`, which unblocks every signal in it (`sigsuspend` with an empty mask) — a
/// SIGTERM then goes to the main thread and ends the process, and a signalfd never sees it
/// (measured: a signal blocked before the first `await` is unblocked after it). Waiting here
/// keeps the main thread's mask, so signals blocked in it (`UnixSignal.block`) reach a
/// `SignalSequence`. The price: nothing may run on the main actor (it would wait forever);
/// the server has no main-actor code.
public enum AsyncMain {
    /// Runs `operation` as a task and blocks the calling thread until it returns its value.
    /// Call it from the main thread of a synchronous `main` (never from a task: it would take
    /// a thread from Swift's pool for the whole run).
    public static func wait<Value: Sendable>(for operation: @escaping @Sendable () async -> Value) -> Value {
        let result = ConditionLock<Value?>(nil)
        // Created here, outside main.swift's main-actor code: the task runs on the global pool.
        Task {
            let value = await operation()
            result.withLock { $0 = value }
            result.broadcast()
        }
        return result.withLock(waitingUntil: { if case .some = $0 { true } else { false } }) { $0! }
    }
}
