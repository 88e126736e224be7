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
    /// The ids check-ins show, under the key the database keeps (every server shows the same).
    let ids: CheckInIDCipher

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
        ids = try CheckInIDCipher(storedKey: key, authenticator: authenticator, ledger: connectionString.description)
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

    /// Records on the caller's thread (a worker's, see `record(_:duplicateSeconds:completion:)`).
    private func recordNow(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        try pool.withConnection { connection throws(LedgerError) in
            var tries = 1
            while true {
                do throws(LedgerError) {
                    guard let capacity = rules.capacity else {
                        return .admitted(try recordOnce(checkIn, duplicateSeconds: rules.duplicateSeconds, connection))
                    }
                    return try connection.transaction { () throws(LedgerError) in
                        try admit(checkIn, rules: rules, capacity: capacity, connection)
                    }
                } catch where connection.lastFailureState == PostgresError.uniqueViolation && tries < Self.recordTries {
                    // The row id the identity gave is held by a check-in `copy` brought with its
                    // receipt number (its row id is the cipher's, anywhere up to 2^48). The
                    // statement was undone whole, the claim with it; the next id is free.
                    tries += 1
                }
            }
        }
    }

    /// How often a check-in is tried whose row id was taken: each try takes the identity's next
    /// id, and imported rows lie scattered over 2^48 ids, rarely two side by side.
    static let recordTries = 3

    /// One try at recording on `connection`, in one statement (autocommit).
    func recordOnce(_ checkIn: NewCheckIn, duplicateSeconds: Int64, _ connection: PostgresConnection) throws(LedgerError) -> RecordOutcome {
        guard let device = checkIn.device else {
            return .recorded(CheckIn(id: try shownID(of: connection.query(Self.insertCheckIn, PostgresRows.parameters(checkIn)), connection),
                                     entry: checkIn))
        }
        // The claim and the insert in one statement (one round trip, one transaction).
        let inserted = try connection.query(Self.claimAndInsert, [
            .text(checkIn.venue.rawValue), .text(device.rawValue), .int64(checkIn.time.milliseconds),
            .int64(duplicateSeconds.multipliedReportingOverflow(by: 1000).partialValue), .text(checkIn.method.rawValue),
            .int64(checkIn.windowAge.map(Int64.init)), .text(checkIn.visitor?.name), .text(checkIn.visitor?.phone),
            .text(checkIn.operatorName),
        ])
        if inserted.rowCount == 1 { return .recorded(CheckIn(id: try shownID(of: inserted, connection), entry: checkIn)) }
        // A duplicate: the claim's row was locked until the check-in holding it committed, so
        // this statement (a new snapshot) sees that check-in.
        let earlier = try connection.query(Self.earlierCheckIn, [.text(checkIn.venue.rawValue), .text(device.rawValue)], repeatable: true)
        guard earlier.rowCount == 1 else {
            throw LedgerError(.corrupt, "\(connection.target): a duplicate key names no check-in")
        }
        return .duplicate(of: try PostgresRows.checkIn(earlier, row: 0, ids: ids))
    }

    /// A check-in at a venue with a capacity, inside a transaction: the venue's advisory lock
    /// (held until the commit) makes every server's count-and-insert for that venue one at a
    /// time, and the count after taking it sees every commit that released it (a commit is
    /// visible before its locks are released). Venues without a capacity never take it.
    func admit(_ checkIn: NewCheckIn, rules: AdmissionRules, capacity: Int,
                       _ connection: PostgresConnection) throws(LedgerError) -> Admission {
        _ = try connection.query(Self.lockVenue, [.text(checkIn.venue.rawValue)])
        let inside = Int(try connection.query(Self.countOpenAtVenue, [.text(checkIn.venue.rawValue),
                                                                      .int64(rules.openSince?.milliseconds ?? Int64.min)]).int64(0, 0) ?? 0)
        if inside >= capacity {
            if let device = checkIn.device {
                let earlier = try connection.query(Self.earlierCheckIn, [.text(checkIn.venue.rawValue), .text(device.rawValue)])
                if earlier.rowCount == 1 {
                    let visit = try PostgresRows.checkIn(earlier, row: 0, ids: ids)
                    if checkIn.time.milliseconds - visit.time.milliseconds < rules.duplicateSeconds * 1000 {
                        return .admitted(.duplicate(of: visit))
                    }
                }
            }
            return .full(inside: inside)
        }
        return .admitted(try recordOnce(checkIn, duplicateSeconds: rules.duplicateSeconds, connection))
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

    /// The id shown for the row an insert returned.
    private func shownID(of inserted: PostgresResult, _ connection: PostgresConnection) throws(LedgerError) -> Int64 {
        guard inserted.rowCount == 1, let row = try inserted.int64(0, 0) else {
            throw LedgerError(.failed, "\(connection.target): the insert returned no id")
        }
        return try ids.shownID(row: row)
    }

    public func recordRefusal(_ refusal: Refusal) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            _ = try connection.query("INSERT INTO refusals (venue, at_ms, reason, method) VALUES ($1, $2, $3, $4)", [
                .text(refusal.venue?.rawValue), .int64(refusal.time.milliseconds), .text(refusal.reason.rawValue),
                .text(refusal.method.rawValue),
            ])
        }
    }

    public func find(id: Int64) throws(LedgerError) -> CheckIn? {
        guard let row = ids.rowID(shown: id) else { return nil }
        return try pool.withConnection { connection throws(LedgerError) in
            let found = try connection.query("SELECT \(LedgerSchema.checkInColumns) FROM checkins WHERE id = $1", [.int64(row)], repeatable: true)
            return found.rowCount == 0 ? nil : try PostgresRows.checkIn(found, row: 0, ids: ids)
        }
    }

    public func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        let selection = PostgresSelection(query, columns: LedgerSchema.checkInColumns, ordered: true)
        try pool.withConnection { connection throws(LedgerError) in
            // One statement: one snapshot, however long the export runs; rows arrive one at a time.
            try connection.stream(selection.sql, selection.parameters) { row throws(LedgerError) in
                body(try PostgresRows.checkIn(row, row: 0, ids: ids))
            }
        }
    }

    public func count(_ query: CheckInQuery) throws(LedgerError) -> Int {
        var unlimited = query
        unlimited.limit = nil
        let selection = PostgresSelection(unlimited, columns: "count(*)", ordered: false)
        return try pool.withConnection { connection throws(LedgerError) in
            Int(try connection.query(selection.sql, selection.parameters, repeatable: true).int64(0, 0) ?? 0)
        }
    }

    /// Deletes what the request's cutoffs select in one transaction, first adding the deleted
    /// check-ins to the kept per-day counts when asked; a dry run only counts.
    public func purge(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in
                if request.keepsCounts && !request.dryRun {
                    _ = try connection.query(Self.keepDailyCounts, [.int64(request.checkInsBefore.milliseconds),
                                                                    .int64(Int64(request.dayOffsetSeconds) * 1000)])
                }
                let checkIns = try Self.delete("checkins", before: request.checkInsBefore, dryRun: request.dryRun, connection)
                let refusals = try Self.delete("refusals", before: request.refusalsBefore, dryRun: request.dryRun, connection)
                if !request.dryRun { _ = try Self.delete("presence", before: request.checkInsBefore, dryRun: false, connection) }
                return PurgeReport(checkIns: checkIns, refusals: refusals)
            }
        }
    }

    /// Check-ins per venue and quarter hour of what `query` selects (its limit ignored).
    public func tally(_ query: CheckInQuery) throws(LedgerError) -> [CheckInTally] {
        var unlimited = query
        unlimited.limit = nil
        let selection = PostgresSelection(unlimited, columns: "venue, \(LedgerSchema.quarterOfRow), count(*)", ordered: false)
        return try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(selection.sql + " GROUP BY 1, 2", selection.parameters, repeatable: true)
            var tallies: [CheckInTally] = []
            for row in 0..<rows.rowCount {
                guard let venue = rows.text(row, 0).flatMap({ try? VenueID($0) }), let quarter = try rows.int64(row, 1) else {
                    throw LedgerError(.corrupt, "a check-in has a venue no ledger writes")
                }
                tallies.append(CheckInTally(venue: venue, quarter: WallTime(milliseconds: quarter * CheckInTally.quarterMilliseconds),
                                            count: Int(try rows.int64(row, 2) ?? 0)))
            }
            return tallies
        }
    }

    /// The per-day counts kept of purged check-ins, of `venue` or of every venue.
    public func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount] {
        try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(Self.selectKeptCounts, [.text(venue?.rawValue)], repeatable: true)
            var counts: [DailyCount] = []
            for row in 0..<rows.rowCount {
                guard let venue = rows.text(row, 0).flatMap({ try? VenueID($0) }), let day = try rows.int64(row, 1) else {
                    throw LedgerError(.corrupt, "a kept count has a venue no ledger writes")
                }
                counts.append(DailyCount(venue: venue, day: CalendarDay(daysSince1970: day), count: Int(try rows.int64(row, 2) ?? 0)))
            }
            return counts
        }
    }

    public func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn] {
        guard let (column, value) = erasure(subject) else { return [] }
        return try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(column.selectCheckIns, [value], repeatable: true)
            var checkIns: [CheckIn] = []
            for row in 0..<rows.rowCount { checkIns.append(try PostgresRows.checkIn(rows, row: row, ids: ids)) }
            return checkIns
        }
    }

    public func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID] {
        try pool.withConnection { connection throws(LedgerError) in
            let rows = try connection.query(LedgerSchema.devicesPrefixed, [.text(prefix), .int64(Int64(limit))], repeatable: true)
            var devices: [DeviceID] = []
            for row in 0..<rows.rowCount {
                guard let device = rows.text(row, 0).flatMap(DeviceID.init) else { throw LedgerError(.corrupt, "a check-in has a malformed device id") }
                devices.append(device)
            }
            return devices
        }
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try erase(subject, connection) }
        }
    }

    /// Deletes `subject`'s check-ins and duplicate keys inside the open transaction; returns how many.
    func erase(_ subject: ErasureSubject, _ connection: PostgresConnection) throws(LedgerError) -> Int {
        guard let (column, value) = erasure(subject) else { return 0 }
        _ = try connection.query(column.deletePresence, [value])
        return try connection.query(column.deleteCheckIns, [value]).changedRows
    }

    /// The column an erasure of `subject` selects by and its value; nil when it names no row
    /// (an id no row can show).
    private func erasure(_ subject: ErasureSubject) -> (ErasureColumn, PostgresParameter)? {
        switch subject {
        case .device(let device): (.device, .text(device.rawValue))
        case .phone(let phone): (.phone, .text(phone))
        case .checkIn(let id): ids.rowID(shown: id).map { (.id, .int64($0)) }
        }
    }

    static func delete(_ table: String, before cutoff: WallTime, dryRun: Bool, _ connection: PostgresConnection) throws(LedgerError) -> Int {
        let parameters: [PostgresParameter] = [.int64(cutoff.milliseconds)]
        if dryRun {
            return Int(try connection.query("SELECT count(*) FROM \(table) WHERE at_ms < $1", parameters).int64(0, 0) ?? 0)
        }
        return try connection.query("DELETE FROM \(table) WHERE at_ms < $1", parameters).changedRows
    }

    /// `LedgerSchema.claimPresence` ($1 venue, $2 device, $3 time, $4 the duplicate time) and,
    /// when it took the claim, `insertCheckIn`'s insert ($5 method, $6 window age, $7 name,
    /// $8 phone, $9 operator) in one statement: the claim's row stays locked until the commit,
    /// so a second server claiming the same device waits and then finds it claimed. Returns
    /// the new id, or no row for a duplicate.
    static let claimAndInsert = """
        WITH claim AS (\(SQLDialect.postgresql.render(LedgerSchema.claimPresence)))
        INSERT INTO checkins (venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator)
        SELECT $1, $3, $5, $6, $2, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM claim)
        RETURNING id
        """
    private static let insertCheckIn = SQLDialect.postgresql.render(LedgerSchema.insertCheckIn)
    static let countOpenAtVenue = SQLDialect.postgresql.render(LedgerSchema.countOpenAtVenue)
    /// A transaction's lock on one venue's admissions: the two-key form, 32 ("q") keeping it
    /// apart from other uses of advisory locks, and the venue's hash.
    static let lockVenue = "SELECT pg_advisory_xact_lock(32, hashtext($1))"
    private static let keepDailyCounts = SQLDialect.postgresql.render(LedgerSchema.keepDailyCounts)
    private static let selectKeptCounts = SQLDialect.postgresql.render(LedgerSchema.selectKeptCounts)
    private static let earlierCheckIn = SQLDialect.postgresql.render(LedgerSchema.earlierCheckIn)
}
