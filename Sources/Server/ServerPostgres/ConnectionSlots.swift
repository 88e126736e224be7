import Synchronization

/// The pool's bound on connections in use, acquired without blocking a thread: a caller past
/// the bound suspends (first come, first served) until a connection is given back, or gives up
/// after a while. What a counting semaphore would do, for tasks.
final class ConnectionSlots: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
        let timeout: Task<Void, Never>?
    }

    private struct State {
        var free: Int
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// `count` slots, all free.
    init(count: Int) {
        state = Mutex(State(free: count))
    }

    /// Takes a slot, waiting at most `limit` for one; false when none was free in time (or the
    /// task was cancelled meanwhile).
    func acquire(within limit: Duration) async -> Bool {
        let id: Int? = state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // The wait's end: a timer only while someone waits (the pool is exhausted).
                let timeout = Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    self?.giveUp(id)
                }
                let resumeNow = state.withLock { state in
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation, timeout: timeout))
                    return false
                }
                if resumeNow {
                    timeout.cancel()
                    continuation.resume(returning: true)
                }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Gives a slot back: to the longest waiter, else to the free ones.
    func release() {
        let waiter: Waiter? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.timeout?.cancel()
        waiter?.continuation.resume(returning: true)
    }

    /// The waiter `id` stops waiting (its time is up, or its task was cancelled), if it still waits.
    private func giveUp(_ id: Int) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.timeout?.cancel()
        waiter?.continuation.resume(returning: false)
    }
}
