import Glibc
import Synchronization

/// Every open connection, counted by client network, with its request deadline: libmicrohttpd's
/// accept policy asks it for the fair share, its connection notifications keep it, and a sweep
/// once a second ends the connections whose request is late. libmicrohttpd's own timeout is
/// idle time only, which a client sending a byte every few seconds never reaches.
///
/// A connection counts from the moment the accept policy admits it, not from its start:
/// libmicrohttpd calls the policy, then makes the connection's memory, and only then says it
/// started, and each of its threads accepts from the listening socket. Counted at its start,
/// a connection admitted on one thread was not yet counted when another thread decided on the
/// same client's next one, and a client at its limit less one got two more (101 of 100).
final class ConnectionTracker: Sendable {
    /// The thread that called the accept policy: it starts (or drops) what it admitted before
    /// it decides on another connection.
    typealias AcceptingThread = pthread_t

    private struct State {
        /// Open connections by socket (libmicrohttpd tells of the close before closing it, so
        /// a descriptor here is never another connection's).
        var connections: [Int32: TrackedConnection] = [:]
        /// Connections admitted by the accept policy and not started yet, by the thread that
        /// admitted them: libmicrohttpd starts a connection on the thread that accepted it,
        /// right after the policy, so a thread has at most one.
        var admitted: [AcceptingThread: ClientNetwork] = [:]
        /// Connections per network, open or admitted; a network with none is not here.
        var perNetwork: [ClientNetwork: Int] = [:]

        /// Connections open or admitted, all networks together.
        var total: Int { connections.count + admitted.count }

        mutating func release(_ network: ClientNetwork) {
            if let held = perNetwork[network], held > 1 {
                perNetwork[network] = held - 1
            } else {
                perNetwork[network] = nil
            }
        }
    }

    private let state = Mutex(State())
    private let share: ConnectionShare
    /// Milliseconds a request has to arrive.
    let requestMilliseconds: Int64

    init(limits: HTTPServerLimits) {
        share = ConnectionShare(limits: limits)
        requestMilliseconds = Int64(limits.requestSeconds) * 1000
    }

    /// Whether `network` may open one more connection now (the accept policy, on `thread`); if
    /// so, the connection counts from now on, until `opened` takes it over or `thread` decides
    /// again without having started it.
    func admits(_ network: ClientNetwork, on thread: AcceptingThread = pthread_self()) -> Bool {
        state.withLock { state in
            // A thread asks again only once it is done with the last connection it admitted:
            // one that did not start was dropped by libmicrohttpd (it could not make its memory).
            if let dropped = state.admitted.removeValue(forKey: thread) { state.release(dropped) }
            guard share.admits(held: state.perNetwork[network] ?? 0, total: state.total, networks: state.perNetwork.count) else {
                return false
            }
            state.admitted[thread] = network
            state.perNetwork[network, default: 0] += 1
            return true
        }
    }

    /// A connection began at `now` (monotonic ms), on the `thread` that admitted it: its first
    /// request is due by the deadline.
    func opened(descriptor: Int32, network: ClientNetwork, now: Int64, on thread: AcceptingThread = pthread_self()) -> TrackedConnection {
        let connection = TrackedConnection(descriptor: descriptor, network: network, deadline: now + requestMilliseconds)
        state.withLock { state in
            if let admitted = state.admitted.removeValue(forKey: thread) {
                if admitted == network { // counted when it was admitted
                    state.connections[descriptor] = connection
                    return
                }
                state.release(admitted)  // not this connection's: never so with libmicrohttpd 0.9.75
            }
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
            state.release(connection.network)
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

    /// Connections `network` holds, open or admitted (tests).
    func held(by network: ClientNetwork) -> Int { state.withLock { $0.perNetwork[network] ?? 0 } }
}
