import SharedAsync
import Synchronization

/// A count of events a test waits for without blocking a thread: `signal()` from any thread
/// (libmicrohttpd's, in a hook), `wait()` takes one, suspending until there is one. What a
/// counting semaphore was, for tests that are tasks (a blocked test would hold one of Swift's
/// few threads, which the server's answers need).
final class TestSignal: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// One more event.
    func signal() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard state.waiters.isEmpty else { return state.waiters.removeFirst() }
            state.count += 1
            return nil
        }
        waiter?.resume()
    }

    /// Takes one event, waiting for it.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.count > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.count -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Takes one event if it comes within `limit`; false when it did not.
    func wait(within limit: Duration) async -> Bool {
        let taken = Mutex(false)
        let task = Task {
            await self.wait()
            taken.withLock { $0 = true }
        }
        let deadline = ContinuousClock.now + limit
        while !taken.withLock({ $0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        if taken.withLock({ $0 }) { return true }
        // Not in time: the waiter stays and takes the next event (each test's signals are its own).
        _ = task
        return false
    }
}

/// Blocking socket reads of a test's clients, run on threads of their own (never on Swift's
/// pool, whose threads the server's answers need).
enum ClientThreads {
    static let pool = try! BlockingPool(threads: 8, name: "test-client")

    /// Runs `work` on a client thread.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        try! await pool.run { () throws(Never) in work() }
    }
}
