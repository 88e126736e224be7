import ServerDomain
import ServerLedgerSQL
import SharedAsync
import SharedDomain
import SharedSystem

/// The shared ledger: PostgreSQL through libpq, for several servers behind one load balancer.
/// Every server is stateless; the database decides duplicates (the presence table's primary key
/// and a conditional upsert, in the transaction that inserts the check-in) and a check-in is
/// acknowledged only after its COMMIT returned. A small pool of connections; one that broke is
/// replaced on the next call, so the ledger recovers by itself when the database returns. Its
/// ports are `SQLEngine`'s, written once with SQLite's; libpq's blocking calls run on the
/// blocking pool.
public final class PostgresLedger: SQLEngine, Ledger {
    /// Connections opened at most by default. Each check-in holds one for its round trip and
    /// its commit's WAL flush, so more connections commit more check-ins per flush: on the
    /// benchmark's 2 cores the check-ins/s grew up to about 16 (docs/BENCHMARKS.md).
    public static let defaultPoolSize = 16

    /// What the ledger connects to (without the password: `description` is safe to log).
    public let connectionString: PostgresConnectionString
    let pool: PostgresPool
    /// Writes nobody waits for (refused scans), still under way: the ledger's stop lets them end.
    let later = InFlight()
    public let observer: (any LedgerObserver)?
    /// The ledger's SQL, under the key of the ids its check-ins show (the database keeps it:
    /// every server shows the same).
    public let sql: SQLLedger

    /// Connects to `connectionString` (a pool of up to `poolSize`) and checks the schema; with
    /// `migrate`, brings it to the newest version first (safe when several servers start at once).
    /// `authenticator` computes the HMACs of the ids check-ins show. libpq's calls run on
    /// `blocking`, which needs at least `poolSize` threads for every connection to be used at
    /// once; `observer` is told of every call's answer.
    public static func open(_ connectionString: PostgresConnectionString, poolSize: Int = defaultPoolSize, migrate: Bool = true,
                            clock: any WallClock, authenticator: any MessageAuthenticator = HMACAuthenticator(), blocking: BlockingPool,
                            observer: (any LedgerObserver)? = nil) async throws(LedgerError) -> PostgresLedger {
        let pool = PostgresPool(connectionString, size: max(1, poolSize), blocking: blocking)
        let now = clock.now()
        let key = try await pool.withConnection { connection throws(LedgerError) in
            _ = try PostgresSchema.migrate(connection, at: now, apply: migrate)
            return try connection.query(LedgerSchema.selectCheckInIDKey).text(0, 0)
        }
        return PostgresLedger(connectionString, pool: pool, sql: SQLLedger(ids: try CheckInIDCipher(storedKey: key, authenticator: authenticator,
                                                                                                    ledger: connectionString.description)),
                              observer: observer)
    }

    private init(_ connectionString: PostgresConnectionString, pool: PostgresPool, sql: SQLLedger, observer: (any LedgerObserver)?) {
        self.connectionString = connectionString
        self.pool = pool
        self.sql = sql
        self.observer = observer
    }

    /// Applies the missing schema steps (`qrcheckin-server migrate`): the versions before and after.
    public static func migrate(_ connectionString: PostgresConnectionString, clock: any WallClock,
                               blocking: BlockingPool) async throws(LedgerError) -> (from: Int, to: Int) {
        let now = clock.now()
        return try await PostgresPool(connectionString, size: 1, blocking: blocking).withConnection { connection throws(LedgerError) in
            try PostgresSchema.migrate(connection, at: now, apply: true)
        }
    }

    // MARK: SQLEngine

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await pool.withConnection { connection throws(LedgerError) in try body(PostgresSession(connection, repeatable: true)) }
    }

    /// One pooled connection's BEGIN … COMMIT (PostgreSQL batches nothing: its connections
    /// commit side by side, and more of them commit more check-ins per WAL flush).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try body(PostgresSession(connection, repeatable: false)) }
        }
    }

    public func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await write(body)
    }

    /// As a task of its own, counted until it ended (`finishWrites`).
    public func writeLater(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> Void) {
        later.enter()
        Task { [later] in
            defer { later.leave() }
            _ = try? await self.write(body)
        }
    }

    public func erased() async {}

    /// Returns once the writes nobody waits for (refused scans) have ended: the ledger's part of
    /// `serve`'s stop.
    public func finishWrites() async {
        await later.drained()
    }

    /// How often a check-in is tried whose row id was taken: each try takes the identity's next
    /// id, and imported rows lie scattered over 2^48 ids, rarely two side by side.
    static let recordTries = 3

    /// Records in one statement (autocommit, one round trip) without a capacity; with one, in a
    /// transaction holding the venue's advisory lock (`SQLLedger.record`).
    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules) async throws(LedgerError) -> Admission {
        try await observer.watching { () async throws(LedgerError) in
            guard rules.capacity != nil else {
                return try await pool.withConnection { [sql] connection throws(LedgerError) in
                    try sql.record(checkIn, rules: rules, on: PostgresSession(connection, repeatable: false))
                }
            }
            return try await write { [sql] session throws(LedgerError) in try sql.record(checkIn, rules: rules, on: session) }
        }
    }
}

