import Synchronization

/// The request to one service that it stop gracefully, as swift-service-lifecycle passes it: a
/// task-local the `ServiceGroup` sets for each service's task (and every task it starts), and
/// triggers when that service's turn to stop comes. Services read it through
/// `gracefulShutdown()`, `withGracefulShutdownHandler` and `cancelWhenGracefulShutdown`.
final class GracefulShutdownSignal: Sendable {
    /// The signal of the service whose task this is; nil outside a group.
    @TaskLocal static var current: GracefulShutdownSignal?

    private struct State {
        var triggered = false
        var nextHandler = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Whether the service has been asked to stop.
    var isTriggered: Bool { state.withLock { $0.triggered } }

    /// Calls `handler` when the service is asked to stop, or now if it has been; returns the
    /// number to `remove` it by (nil when it was called now).
    func add(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let id: Int? = state.withLock { state in
            guard !state.triggered else { return nil }
            defer { state.nextHandler += 1 }
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        if id == nil { handler() }
        return id
    }

    /// Forgets the handler numbered `id` (its operation ended).
    func remove(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Asks the service to stop: each handler is called once, outside the lock.
    func trigger() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            guard !state.triggered else { return [] }
            state.triggered = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }
}

/// Waits until the current service is asked to stop gracefully (its turn in the group's
/// shutdown), then returns; throws `CancellationError` when the task is cancelled first.
/// Outside a `ServiceGroup` nobody will ask: it waits until the task is cancelled.
public func gracefulShutdown() async throws(CancellationError) {
    let wake = OneWake()
    await withGracefulShutdownHandler {
        await withTaskCancellationHandler {
            await wake.wait()
        } onCancel: {
            wake.wake()
        }
    } onGracefulShutdown: {
        wake.wake()
    }
    if !isShuttingDownGracefully { throw CancellationError() }
}

/// Runs `operation`, calling `handler` (once, from any thread) if the current service is
/// asked to stop gracefully meanwhile, or at once if it already was. Outside a group the
/// handler is never called.
public func withGracefulShutdownHandler<Value, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws(Failure) -> Value,
    onGracefulShutdown handler: @escaping @Sendable () -> Void
) async throws(Failure) -> Value {
    guard let signal = GracefulShutdownSignal.current, let id = signal.add(handler) else {
        return try await operation()
    }
    defer { signal.remove(id) }
    return try await operation()
}

/// Runs `operation` and cancels it when the current service is asked to stop gracefully: for
/// work that has nothing to finish (a schedule's sleep between two passes). Throws what the
/// operation throws (`CancellationError` from a cancelled sleep).
public func cancelWhenGracefulShutdown<Value: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    // An unstructured task (it inherits the task-locals), awaited here, so that the shutdown
    // handler (any thread) can cancel it without cancelling the caller.
    let task = Task { try await operation() }
    return try await withGracefulShutdownHandler {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    } onGracefulShutdown: {
        task.cancel()
    }
}

/// Whether the current service has been asked to stop gracefully (false outside a group).
public var isShuttingDownGracefully: Bool {
    GracefulShutdownSignal.current?.isTriggered ?? false
}

/// One suspended task woken once, by whichever comes first (a shutdown, a cancellation); a
/// wake before the wait makes the wait return at once.
private final class OneWake: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case woken
    }

    private let state = Mutex(State.idle)

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                guard case .idle = state else { return true }
                state = .waiting(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func wake() {
        let waiting: CheckedContinuation<Void, Never>? = state.withLock { state in
            defer { state = .woken }
            guard case .waiting(let continuation) = state else { return nil }
            return continuation
        }
        waiting?.resume()
    }
}
