import Glibc
import SharedSystem

/// What `BlockingPool`'s threads share with it: the queue, under one `ConditionLock`. The
/// threads hold this, not the pool, so dropping the pool closes it.
final class PoolCore: Sendable {
    private struct State {
        var queue = JobQueue()
        var closed = false
        var threads: [pthread_t] = []
        var left = 0
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let lock = ConditionLock(State())

    /// Records the started threads (before any can end: they end only once closed).
    func start(_ threads: [pthread_t]) {
        lock.withLock { $0.threads = threads }
    }

    /// Queues `job`, or returns why not: the pool is closed, or `cancelled()` says the task is.
    func enqueue(_ job: PoolJob, cancelled: () -> Bool) -> PoolRefusal? {
        let refusal: PoolRefusal? = lock.withLock { state in
            if state.closed { return .closed }
            if cancelled() { return .cancelled }
            state.queue.append(job)
            return nil
        }
        if refusal == nil { lock.signal() }
        return refusal
    }

    /// Takes the job numbered `id` out of the queue, if it is still there.
    func remove(_ id: UInt64) -> PoolJob? {
        lock.withLock { $0.queue.remove(id) }
    }

    /// Whether the calling thread is one of this pool's.
    var isCurrentThread: Bool {
        pthread_getspecific(poolThreadKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Whether the pool refuses new work.
    var isClosed: Bool { lock.withLock { $0.closed } }

    /// The jobs waiting.
    var queued: Int { lock.withLock { $0.queue.count } }

    /// Refuses new jobs; the threads end once the queue is empty. `continuation` (if any) is
    /// resumed when every thread has ended.
    func close(then continuation: CheckedContinuation<Void, Never>? = nil) {
        let resumeNow = lock.withLock { state in
            state.closed = true
            if state.ended || state.threads.isEmpty { return true }
            if let continuation { state.waiters.append(continuation) }
            return false
        }
        lock.broadcast()
        if resumeNow { continuation?.resume() }
    }

    /// A pool thread's life: the oldest job, run outside the lock, until closed and empty.
    /// The last thread out joins the others (all past their last job) and detaches itself, so
    /// the threads are freed without any task blocking in `pthread_join`, then wakes `shutdown`.
    func work() {
        pthread_setspecific(poolThreadKey, Unmanaged.passUnretained(self).toOpaque())
        while let job = lock.withLock(waitingUntil: { !$0.queue.isEmpty || $0.closed }, { $0.queue.popFirst() }) {
            job.body(nil)
        }
        let last: (threads: [pthread_t], waiters: [CheckedContinuation<Void, Never>])? = lock.withLock { state in
            state.left += 1
            guard state.left == state.threads.count else { return nil }
            state.ended = true
            defer { state.waiters = [] }
            return (state.threads, state.waiters)
        }
        guard let last else { return }
        let me = pthread_self()
        for thread in last.threads where pthread_equal(thread, me) == 0 { SystemThread.join(thread) }
        SystemThread.detach(me)
        for waiter in last.waiters { waiter.resume() }
    }
}

/// Each pool thread's `PoolCore` (`isCurrentThread`).
private let poolThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
    return key
}()
