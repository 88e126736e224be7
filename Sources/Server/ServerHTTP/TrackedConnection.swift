import Synchronization

/// One connection as the adapter tracks it from accept to close: its socket (for the sweep
/// that ends a request too slow to arrive), its client network (for the fair share), and the
/// moment by which its current request must have arrived.
final class TrackedConnection: Sendable {
    /// The connection's socket, libmicrohttpd's until it closes it.
    let descriptor: Int32
    /// Where it counts.
    let network: ClientNetwork
    /// CLOCK_MONOTONIC milliseconds by which the request being read must be complete; 0 while
    /// none is being read (its answer is being made or sent).
    let deadline: Atomic<Int64>

    init(descriptor: Int32, network: ClientNetwork, deadline: Int64) {
        self.descriptor = descriptor
        self.network = network
        self.deadline = Atomic(deadline)
    }
}
