import ServerDomain
import SharedAsync
import Synchronization

/// At most `size` connections, made when needed and kept for reuse. A connection that broke is
/// closed and the next caller makes a new one, so the ledger reconnects by itself when the
/// database comes back. Once connecting has failed, one caller at a time tries again (at most
/// every `retryInterval`) and the others fail at once instead of each waiting for its own
/// attempt (up to `connect_timeout` on a host that does not answer): during an outage a 503 is
/// immediate and the server's threads stay free. A connection is acquired without a thread
/// waiting (`ConnectionSlots`); libpq's blocking calls run on the blocking pool, whose threads
/// are at least as many as the connections (the composition root sees to it), so a call that
/// holds a connection never waits for a thread.
final class PostgresPool: Sendable {
    /// How long a caller waits for a free connection before `busy`.
    static let checkoutSeconds = 10
    /// How long after a failed attempt to connect callers fail without trying again.
    let retryInterval: Duration

    private struct State: ~Copyable {
        var idle: [PostgresConnection] = []
        /// The last failure to connect and when to try again.
        var failure: (error: LedgerError, until: ContinuousClock.Instant)?
        /// Whether a caller is trying to connect after a failure.
        var probing = false
    }

    /// The most connections open at once.
    let size: Int
    private let connectionString: PostgresConnectionString
    private let slots: ConnectionSlots
    private let state = Mutex(State())
    /// Where libpq's blocking calls run.
    let blocking: BlockingPool

    /// A pool of at most `size` connections to `connectionString`, their calls run on
    /// `blocking`; none is opened yet. After a failure to connect, no one tries again for
    /// `retryInterval`.
    init(_ connectionString: PostgresConnectionString, size: Int, blocking: BlockingPool, retryInterval: Duration = .milliseconds(250)) {
        precondition(size > 0, "a pool needs a connection")
        self.size = size
        self.retryInterval = retryInterval
        self.connectionString = connectionString
        self.blocking = blocking
        slots = ConnectionSlots(count: size)
    }

    /// Runs `body` on a connection, on the blocking pool. When the connection had been idle and
    /// its first command found it broken (the database restarted since), and that command could
    /// be sent again (`repeatable`: BEGIN, a read), `body` runs once more on a new connection: a
    /// restart that is over costs no visitor a 503.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        guard await slots.acquire(within: .seconds(Self.checkoutSeconds)) else {
            throw LedgerError(.busy, "all \(size) PostgreSQL connections were busy for \(Self.checkoutSeconds) s")
        }
        defer { slots.release() }
        return try await blocking.run({ () throws(LedgerError) in try self.onConnection(body) }, refused: HeldConnection.refused)
    }

    /// Holds one connection across several trips to the blocking pool (a copy that reads
    /// another ledger between its inserts): `body` runs each step with `HeldConnection.run`,
    /// on the pool, on the same connection. No retry: it is for a transaction of its own.
    func holding<T: Sendable>(_ body: (HeldConnection) async throws(LedgerError) -> T) async throws(LedgerError) -> T {
        guard await slots.acquire(within: .seconds(Self.checkoutSeconds)) else {
            throw LedgerError(.busy, "all \(size) PostgreSQL connections were busy for \(Self.checkoutSeconds) s")
        }
        defer { slots.release() }
        let connection = try await blocking.run({ () throws(LedgerError) in try self.checkOut().0 }, refused: HeldConnection.refused)
        defer { checkIn(connection) }
        return try await body(HeldConnection(connection: connection, blocking: blocking))
    }

    /// Runs `body` on a connection, on this thread (a pool thread), the slot held.
    private func onConnection<T>(_ body: (PostgresConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        var (connection, reused) = try checkOut()
        while true {
            do throws(LedgerError) {
                let value = try body(connection)
                checkIn(connection)
                return value
            } catch {
                let retry = reused && connection.isBroken && connection.commandsSinceCheckout == 1 && connection.firstCommandRepeatable
                checkIn(connection)
                guard retry else { throw error }
                (connection, reused) = try checkOut()
            }
        }
    }

    /// An idle healthy connection (reused) or a new one.
    private func checkOut() throws(LedgerError) -> (PostgresConnection, reused: Bool) {
        while let idle = state.withLock({ $0.idle.popLast() }) {
            if idle.isHealthy {
                idle.checkedOut()
                return (idle, true)
            }
        }
        let refused: LedgerError? = state.withLock { state in
            guard let failure = state.failure else { return nil }
            if state.probing || ContinuousClock.now < failure.until { return failure.error }
            state.probing = true
            return nil
        }
        if let refused { throw refused }
        let parameters = connectionString.libpqParameters
        do throws(LedgerError) {
            let connection = try PostgresConnection(keywords: parameters.keywords, values: parameters.values)
            state.withLock { state in
                state.failure = nil
                state.probing = false
            }
            connection.checkedOut()
            return (connection, false)
        } catch {
            state.withLock { state in
                state.failure = (error, ContinuousClock.now + retryInterval)
                state.probing = false
            }
            throw error
        }
    }

    /// Keeps a connection that is still good; a broken one is closed (released here).
    private func checkIn(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return }
        state.withLock { $0.idle.append(connection) }
    }
}

/// A connection a caller holds across several trips to the blocking pool (`PostgresPool.holding`).
struct HeldConnection: Sendable {
    let connection: PostgresConnection
    let blocking: BlockingPool

    /// Runs `work` on the connection, on the blocking pool.
    func run<R: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws(LedgerError) -> R) async throws(LedgerError) -> R {
        try await blocking.run({ [connection] () throws(LedgerError) in try work(connection) }, refused: Self.refused)
    }

    static func refused(_ refusal: BlockingPoolError<Never>) -> LedgerError {
        LedgerError(.unavailable, "the PostgreSQL ledger's work was refused: \(refusal)")
    }
}
