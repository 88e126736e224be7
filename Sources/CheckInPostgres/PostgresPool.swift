import CheckInServerDomain
import Dispatch
import Synchronization

/// At most `size` connections, made when needed and kept for reuse. A connection that broke is
/// closed and the next caller makes a new one, so the ledger reconnects by itself when the
/// database comes back. While connecting fails, callers fail at once (for `retryInterval`)
/// instead of each waiting for its own attempt: a 503 is immediate during an outage.
final class PostgresPool: Sendable {
    /// How long a caller waits for a free connection before `busy`.
    static let checkoutSeconds = 10
    /// How long after a failed attempt to connect callers fail without trying again.
    static let retryInterval: Duration = .milliseconds(250)

    private struct State: ~Copyable {
        var idle: [PostgresConnection] = []
        /// The last failure to connect and when to try again.
        var failure: (error: LedgerError, until: ContinuousClock.Instant)?
    }

    /// The most connections open at once.
    let size: Int
    private let connectionString: PostgresConnectionString
    private let slots: DispatchSemaphore
    private let state = Mutex(State())

    /// A pool of at most `size` connections to `connectionString`; none is opened yet.
    init(_ connectionString: PostgresConnectionString, size: Int) {
        precondition(size > 0, "a pool needs a connection")
        self.size = size
        self.connectionString = connectionString
        slots = DispatchSemaphore(value: size)
    }

    /// Runs `body` on a connection. When the connection had been idle and its first command
    /// found it broken (the database restarted since), and that command could be sent again
    /// (`repeatable`: BEGIN, a read), `body` runs once more on a new connection: a restart
    /// that is over costs no visitor a 503.
    func withConnection<T>(_ body: (PostgresConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        guard slots.wait(timeout: .now() + .seconds(Self.checkoutSeconds)) == .success else {
            throw LedgerError(.busy, "all \(size) PostgreSQL connections were busy for \(Self.checkoutSeconds) s")
        }
        defer { slots.signal() }
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
        if let failure = state.withLock({ state in state.failure.flatMap { ContinuousClock.now < $0.until ? $0.error : nil } }) {
            throw failure
        }
        let parameters = connectionString.libpqParameters
        do throws(LedgerError) {
            let connection = try PostgresConnection(keywords: parameters.keywords, values: parameters.values)
            state.withLock { $0.failure = nil }
            connection.checkedOut()
            return (connection, false)
        } catch {
            state.withLock { $0.failure = (error, ContinuousClock.now + Self.retryInterval) }
            throw error
        }
    }

    /// Keeps a connection that is still good; a broken one is closed (released here).
    private func checkIn(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return }
        state.withLock { $0.idle.append(connection) }
    }
}
