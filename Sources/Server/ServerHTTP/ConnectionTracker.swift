import Glibc
import Synchronization

/// Every open connection, counted by client network, with its request deadline: libmicrohttpd's
/// accept policy asks it for the fair share, its connection notifications keep it, and a sweep
/// once a second ends the connections whose request is late. libmicrohttpd's own timeout is
/// idle time only, which a client sending a byte every few seconds never reaches.
final class ConnectionTracker: Sendable {
    private struct State {
        /// Open connections by socket (libmicrohttpd tells of the close before closing it, so
        /// a descriptor here is never another connection's).
        var connections: [Int32: TrackedConnection] = [:]
        /// Open connections per network; a network with none is not here.
        var perNetwork: [ClientNetwork: Int] = [:]
    }

    private let state = Mutex(State())
    private let share: ConnectionShare
    /// Milliseconds a request has to arrive.
    let requestMilliseconds: Int64

    init(limits: HTTPServerLimits) {
        share = ConnectionShare(limits: limits)
        requestMilliseconds = Int64(limits.requestSeconds) * 1000
    }

    /// Whether `network` may open one more connection now (the accept policy).
    func admits(_ network: ClientNetwork) -> Bool {
        state.withLock { state in
            share.admits(held: state.perNetwork[network] ?? 0, total: state.connections.count, networks: state.perNetwork.count)
        }
    }

    /// A connection began at `now` (monotonic ms): its first request is due by the deadline.
    func opened(descriptor: Int32, network: ClientNetwork, now: Int64) -> TrackedConnection {
        let connection = TrackedConnection(descriptor: descriptor, network: network, deadline: now + requestMilliseconds)
        state.withLock { state in
            state.connections[descriptor] = connection
            state.perNetwork[network, default: 0] += 1
        }
        return connection
    }

    /// The connection ended; libmicrohttpd closes its socket after this returns.
    func closed(_ connection: TrackedConnection) {
        state.withLock { state in
            guard state.connections[connection.descriptor] === connection else { return }
            state.connections[connection.descriptor] = nil
            if let held = state.perNetwork[connection.network], held > 1 {
                state.perNetwork[connection.network] = held - 1
            } else {
                state.perNetwork[connection.network] = nil
            }
        }
    }

    /// Shuts down the sockets of the connections whose request is not complete by `now`
    /// (monotonic ms): libmicrohttpd then reads the end of the stream and closes them. Done
    /// under the lock, so a socket cannot close (and its number be reused) meanwhile.
    /// Returns how many it ended.
    @discardableResult
    func endLateRequests(now: Int64) -> Int {
        state.withLock { state in
            var ended = 0
            for connection in state.connections.values {
                let deadline = connection.deadline.load(ordering: .relaxed)
                guard deadline != 0, deadline <= now,
                      // Not if its request completed (or the next one began) meanwhile.
                      connection.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged else { continue }
                shutdown(connection.descriptor, Int32(SHUT_RDWR))
                ended += 1
            }
            return ended
        }
    }

    /// Open connections, all networks together (tests, metrics).
    var count: Int { state.withLock { $0.connections.count } }
}
