import ServerDomain
import ServerLedgerSQL
import SharedDomain
import SharedSystem

/// The shared ledger: PostgreSQL through libpq, for several servers behind one load balancer.
/// Every server is stateless; the database decides duplicates (the presence table's primary key
/// and a conditional upsert, in the transaction that inserts the check-in) and a check-in is
/// acknowledged only after its COMMIT returned. A small pool of connections; one that broke is
/// replaced on the next call, so the ledger recovers by itself when the database returns.
public final class PostgresLedger: CheckInLedger {
    /// Connections opened at most by default. Each check-in holds one for its round trip and
    /// its commit's WAL flush, so more connections commit more check-ins per flush: on the
    /// benchmark's 2 cores the check-ins/s grew up to about 16 (docs/BENCHMARKS.md).
    public static let defaultPoolSize = 16

    /// What the ledger connects to (without the password: `description` is safe to log).
    public let connectionString: PostgresConnectionString
    let pool: PostgresPool
    /// The threads of the calls that answer through a completion.
    private let workers: PostgresWorkers
    /// The ledger's SQL, under the key of the ids its check-ins show (the database keeps it:
    /// every server shows the same).
    let sql: SQLLedger

    /// Connects to `connectionString` (a pool of up to `poolSize`) and checks the schema; with
    /// `migrate`, brings it to the newest version first (safe when several servers start at once).
    /// `authenticator` computes the HMACs of the ids check-ins show.
    public init(_ connectionString: PostgresConnectionString, poolSize: Int = defaultPoolSize, migrate: Bool = true,
                clock: any WallClock, authenticator: any MessageAuthenticator = HMACAuthenticator()) throws(LedgerError) {
        self.connectionString = connectionString
        pool = PostgresPool(connectionString, size: max(1, poolSize))
        workers = PostgresWorkers(count: max(1, poolSize))
        let key = try pool.withConnection { connection throws(LedgerError) in
            _ = try PostgresSchema.migrate(connection, at: clock.now(), apply: migrate)
            return try connection.query(LedgerSchema.selectCheckInIDKey).text(0, 0)
        }
        sql = SQLLedger(ids: try CheckInIDCipher(storedKey: key, authenticator: authenticator, ledger: connectionString.description))
    }

    /// Applies the missing schema steps (`qrcheckin-server migrate`): the versions before and after.
    public static func migrate(_ connectionString: PostgresConnectionString, clock: any WallClock) throws(LedgerError) -> (from: Int, to: Int) {
        try PostgresPool(connectionString, size: 1).withConnection { connection throws(LedgerError) in
            try PostgresSchema.migrate(connection, at: clock.now(), apply: true)
        }
    }

    /// Runs `body` on a pooled connection (the copy of another ledger's history uses it).
    func withConnection<T>(_ body: (PostgresConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try pool.withConnection(body)
    }

    /// Runs `body` on a pooled connection's read session (sent again on a new connection when
    /// the pooled one turned out broken).
    func read<T>(_ body: (PostgresSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try pool.withConnection { connection throws(LedgerError) in try body(PostgresSession(connection, repeatable: true)) }
    }

    /// Runs `body` inside a transaction of its own on a pooled connection.
    func write<T>(_ body: (PostgresSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try body(PostgresSession(connection, repeatable: false)) }
        }
    }

    /// Runs `body`, one statement that is its own transaction (autocommit), on a pooled
    /// connection; `repeatable` when sending it again after a lost connection does nothing twice.
    func alone<T>(repeatable: Bool, _ body: (PostgresSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try pool.withConnection { connection throws(LedgerError) in try body(PostgresSession(connection, repeatable: repeatable)) }
    }

    /// How often a check-in is tried whose row id was taken: each try takes the identity's next
    /// id, and imported rows lie scattered over 2^48 ids, rarely two side by side.
    static let recordTries = 3

    /// Records on the caller's thread: one statement (autocommit, one round trip) without a
    /// capacity; with one, a transaction holding the venue's advisory lock (`SQLLedger.record`).
    private func recordNow(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        guard rules.capacity != nil else {
            return try alone(repeatable: false) { session throws(LedgerError) in try sql.record(checkIn, rules: rules, on: session) }
        }
        return try write { session throws(LedgerError) in try sql.record(checkIn, rules: rules, on: session) }
    }

    /// Records on one of the ledger's threads and hands the outcome to `completion` after the
    /// commit: the caller's thread goes on at once.
    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules,
                       completion: @escaping @Sendable (Result<Admission, LedgerError>) -> Void) {
        workers.submit {
            completion(Result { () throws(LedgerError) in try self.recordNow(checkIn, rules: rules) })
        }
    }

    /// Runs `body` on one of the ledger's threads (the calls that answer through a completion).
    func submit(_ body: @escaping @Sendable () -> Void) {
        workers.submit(body)
    }

    public func finishWrites() {
        workers.finish()
    }

    /// Keeps a refused scan on one of the ledger's threads; a failure is dropped (nothing was
    /// promised to anyone about a refusal).
    public func recordRefusalLater(_ refusal: Refusal) {
        workers.submit { try? self.recordRefusal(refusal) }
    }

    public func recordRefusal(_ refusal: Refusal) throws(LedgerError) {
        try alone(repeatable: false) { session throws(LedgerError) in try sql.recordRefusal(refusal, on: session) }
    }

    public func find(id: Int64) throws(LedgerError) -> CheckIn? {
        try read { session throws(LedgerError) in try sql.find(id: id, on: session) }
    }

    public func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        // One statement: one snapshot, however long the export runs; rows arrive one at a time.
        try read { session throws(LedgerError) in try sql.export(query, on: session, body) }
    }

    public func count(_ query: CheckInQuery) throws(LedgerError) -> Int {
        try read { session throws(LedgerError) in try sql.count(query, on: session) }
    }

    /// Deletes what the request's cutoffs select in one transaction, first adding the deleted
    /// check-ins to the kept per-day counts when asked; a dry run only counts.
    public func purge(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        if request.dryRun { return try read { session throws(LedgerError) in try sql.purgeDue(request, on: session) } }
        return try write { session throws(LedgerError) in
            PurgeReport(checkIns: try sql.deleteCheckIns(before: request.checkInsBefore, request, on: session),
                        refusals: try sql.delete(.refusals, before: request.refusalsBefore, dryRun: false, on: session))
        }
    }

    /// Check-ins per venue and quarter hour of what `query` selects (its limit ignored).
    public func tally(_ query: CheckInQuery) throws(LedgerError) -> [CheckInTally] {
        try read { session throws(LedgerError) in try sql.tally(query, on: session) }
    }

    /// The per-day counts kept of purged check-ins, of `venue` or of every venue.
    public func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount] {
        try read { session throws(LedgerError) in try sql.keptCounts(venue: venue, on: session) }
    }

    public func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn] {
        try read { session throws(LedgerError) in try sql.checkIns(of: subject, on: session) }
    }

    public func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID] {
        try read { session throws(LedgerError) in try sql.devices(prefixed: prefix, limit: limit, on: session) }
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        try write { session throws(LedgerError) in try sql.erase(subject, on: session) }
    }
}
