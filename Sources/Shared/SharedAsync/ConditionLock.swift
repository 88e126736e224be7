import Glibc

/// A value guarded by a pthread mutex, with a condition variable to wait on until the value is
/// ready: what threads outside Swift's concurrency (`BlockingPool`'s, a program's main thread)
/// block on. `Synchronization.Mutex` cannot be used: `pthread_cond_wait` needs a
/// `pthread_mutex_t` to release while it sleeps, so the mutex and the condition live together.
///
/// `@unchecked Sendable` because it owns C values Swift cannot check: the mutex and the
/// condition are allocated once (they must not move), destroyed in `deinit`, and `state` is
/// read and written only while the mutex is held.
final class ConditionLock<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    /// A lock guarding `state`.
    init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the state with the mutex held. Never blocks for longer than another
    /// holder's `body` (no holder waits or does I/O), so it may run on Swift's cooperative pool.
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Blocks the calling thread until `ready` holds for the state (woken by `signal` or
    /// `broadcast` after a change), then runs `body` on it with the mutex held. Never call it on
    /// Swift's cooperative pool: the thread sleeps for as long as it takes.
    func withLock<Result>(waitingUntil ready: (borrowing State) -> Bool, _ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // A wake-up may be spurious or meant for another waiter: the condition is checked again.
        while !ready(state) { pthread_cond_wait(condition, mutex) }
        return body(&state)
    }

    /// Wakes one thread waiting in `withLock(waitingUntil:_:)` (call it after changing the state).
    func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
