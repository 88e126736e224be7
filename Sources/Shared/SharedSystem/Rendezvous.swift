import Dispatch

/// One value handed from the thread that makes it to a thread that waits for it: the one
/// bridge from a completion-style call to a caller that must block (a command, a test, an HTTP
/// thread while its server stops). Everything else answers through completions (DEVELOPMENT.md,
/// "One async style").
public final class Rendezvous<Value: Sendable>: @unchecked Sendable {
    /// Written once before `ready` is signalled, read only after it.
    private var value: Value?
    private let ready = DispatchSemaphore(value: 0)

    /// An empty rendezvous.
    public init() {}

    /// Hands `value` over and wakes the waiter. Call it once.
    public func put(_ value: Value) {
        self.value = value
        ready.signal()
    }

    /// Waits until the value has been put, and returns it. Call it once.
    public func take() -> Value {
        ready.wait()
        return value!
    }

    /// Waits at most `milliseconds` for the value: nil when it was not put by then (a graceful
    /// stop that must end on time).
    public func take(waitingAtMost milliseconds: Int64) -> Value? {
        guard ready.wait(timeout: .now() + .milliseconds(Int(clamping: max(0, milliseconds)))) == .success else { return nil }
        return value!
    }

    /// Calls `start` with a completion and waits until the completion has been called (on any
    /// thread, possibly before `start` returns): the value it was called with.
    public static func wait(for start: (@escaping @Sendable (Value) -> Void) -> Void) -> Value {
        let rendezvous = Rendezvous<Value>()
        start { rendezvous.put($0) }
        return rendezvous.take()
    }
}
