import Synchronization

/// A wake-up a task waits for without a thread: `wake()`, from any thread, ends the wait under
/// way or the next one (wakes before a wait count as one), as does the task's cancellation.
/// The listener's sweep waits on one while no connection is open.
final class Wakeup: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case woken
    }

    private let state = Mutex(State.idle)

    /// Returns once woken (at once if woken since the last wait), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if case .woken = state {
                        state = .idle
                        return true
                    }
                    if Task.isCancelled { return true }
                    state = .waiting(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resumeWaiter(leaving: .idle)
        }
    }

    /// Ends the wait under way, or the next one.
    func wake() {
        resumeWaiter(leaving: .woken)
    }

    private func resumeWaiter(leaving next: State) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            if case .waiting(let continuation) = state {
                state = .idle
                return continuation
            }
            if case .woken = next { state = .woken }
            return nil
        }
        waiter?.resume()
    }
}
