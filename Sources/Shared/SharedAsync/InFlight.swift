import Synchronization

/// Work under way, counted, with a wait for none to be left: how a service that stops lets
/// what it began finish (a listener's suspended requests, a ledger's writes nobody waits
/// for). `enter` before the work begins, `leave` once it ended; `drained()` suspends (no
/// thread waits) until the count is zero, as `DispatchGroup.wait` would block.
public final class InFlight: Sendable {
    private struct State {
        var count = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Nothing under way.
    public init() {}

    /// The work under way now.
    public var count: Int { state.withLock { $0.count } }

    /// One more work is under way.
    public func enter() {
        state.withLock { $0.count += 1 }
    }

    /// One work ended; the waiters wake when it was the last.
    public func leave() {
        let woken: [CheckedContinuation<Void, Never>] = state.withLock { state in
            precondition(state.count > 0, "InFlight.leave without enter")
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once no work is under way (at once when none is), or when the task is cancelled
    /// (then work may be left: check `count`).
    public func drained() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard state.count > 0, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits as `drained()` does, at most `limit` on `clock`; true when nothing was left.
    public func drained(within limit: Duration, on clock: any Clock<Duration>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.drained()
                return true
            }
            group.addTask {
                try? await Self.sleep(on: clock, for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first || count == 0
        }
    }

    private static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }
}
