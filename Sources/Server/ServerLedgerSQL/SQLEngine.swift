import ServerDomain

/// An SQL engine as the ledger's ports see it: its SQL (`SQLLedger`) and how it has a session —
/// for a read, in a write transaction batched with others, in a transaction of its own, or for
/// a write nobody waits for. SQLite and PostgreSQL implement these few; every port of the
/// ledger is then written once over them (`SQLEngine+Ports`), so a query both engines run is
/// one piece of code, and each engine differs only where it must (SQLite's purge in batches,
/// PostgreSQL's check-in in one statement).
///
/// Each call is one trip to where blocking work runs (SQLite's writer thread, the blocking
/// pool) and back, answered after the commit for a write: the task waits, no thread does.
public protocol SQLEngine: Sendable {
    /// The ledger's SQL, under the key of the ids its check-ins show.
    var sql: SQLLedger { get }
    /// Told of each call's answer (the server's outage watch), if anyone is.
    var observer: (any LedgerObserver)? { get }

    /// Runs `body` on a read session (rows committed before it began) and returns its value.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T

    /// Runs `body` in a write transaction, batched with others where the engine commits many
    /// together (SQLite's group commit), and returns its value once committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T

    /// Runs `body` in a transaction of its own, batched with nothing (an operator's action: its
    /// failure fails no visitor's check-in, and no visitor's failure undoes it).
    func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T

    /// Runs `body` in a write transaction nobody waits for; a failure is dropped.
    func writeLater(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> Void)

    /// After check-ins were erased and committed: their pages must not linger (SQLite copies
    /// its write-ahead log back and truncates it). Best effort.
    func erased() async
}

extension SQLEngine {
    /// `read`, its answer told to the observer.
    public func reading<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await observer.watching { () async throws(LedgerError) in try await read(body) }
    }

    /// `write`, its answer told to the observer.
    public func writing<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await observer.watching { () async throws(LedgerError) in try await write(body) }
    }
}
