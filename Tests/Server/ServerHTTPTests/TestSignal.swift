import SharedAsync
import Synchronization

/// A count of events a test waits for without blocking a thread: `signal()` from any thread
/// (libmicrohttpd's, in a hook), `wait()` takes one, suspending until there is one. What a
/// counting semaphore was, for tests that are tasks (a blocked test would hold one of Swift's
/// few threads, which the server's answers need).
final class TestSignal: Sendable {
    private struct State {
        var count = 0
        var nextWaiter = 0
        /// Waiters in the order they came, each resumed with true (an event) or false (its deadline).
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())

    /// One more event: the oldest waiter takes it, or it is kept for the next.
    func signal() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard state.waiters.isEmpty else { return state.waiters.removeFirst().continuation }
            state.count += 1
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Takes one event, waiting for it.
    func wait() async {
        _ = await take(id: state.withLock { state in defer { state.nextWaiter += 1 }; return state.nextWaiter })
    }

    /// Takes one event if it comes within `limit`; false when it did not. A wait that timed out
    /// takes nothing later: the next event is the next wait's.
    func wait(within limit: Duration) async -> Bool {
        let id = state.withLock { state in defer { state.nextWaiter += 1 }; return state.nextWaiter }
        let deadline = Task {
            try await Task.sleep(for: limit)
            self.expire(id)
        }
        defer { deadline.cancel() }
        return await take(id: id)
    }

    private func take(id: Int) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now: Bool? = state.withLock { state in
                if state.expired.remove(id) != nil { return false }
                guard state.count > 0 else {
                    state.waiters.append((id, continuation))
                    return nil
                }
                state.count -= 1
                return true
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The deadline of waiter `id` passed: it stops waiting (false), taking nothing.
    private func expire(_ id: Int) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.expired.insert(id)
                return nil
            }
            return state.waiters.remove(at: index).continuation
        }
        waiter?.resume(returning: false)
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
