import Glibc
import ServerDomain
import ServerLedgerSQL
import SharedDomain
import SharedSystem

/// The embedded ledger: one SQLite file in WAL mode (readers never wait for the writer),
/// migrated on open, one writer with group commit. A check-in is acknowledged only after its
/// transaction has committed (`SQLiteDurability` says how far).
public final class SQLiteLedger: CheckInLedger {
    /// The page size of a new database, in bytes.
    static let pageSize = 1024

    /// The database file.
    public let path: String
    let writer: SQLiteWriter
    let readers: SQLiteReaders
    let checkpointer: SQLiteCheckpointer
    /// The ids check-ins show, under the key this ledger keeps.
    let ids: CheckInIDCipher

    /// Opens the ledger at `path`, creating it (mode 0600: a visitor log is personal data)
    /// when `create` is true, and brings its schema up to date. Its directory must pass the
    /// directory-trust rule, which follows the links on the way it trusts (`SQLiteDatabaseFile`:
    /// systemd's state directory); the file itself must not be a link. With `create` and
    /// `directoryMode`, a missing directory is made. `authenticator` computes the HMACs of the
    /// ids check-ins show.
    public init(path: String, create: Bool, directoryMode: mode_t? = nil, durability: SQLiteDurability = .full,
                clock: any WallClock, authenticator: any MessageAuthenticator = HMACAuthenticator()) throws(LedgerError) {
        self.path = path
        let file = try SQLiteDatabaseFile(path, directoryMode: create ? directoryMode : nil)
        if create {
            try Self.createFile(file)
        } else if access(file.resolvedPath, F_OK) != 0 && errno == ENOENT {
            throw LedgerError(.missing, "database \(path) does not exist")
        }
        let connection = try SQLiteConnection(file: file, create: false)
        if try connection.integer("PRAGMA page_count") == 0 {
            // Before the first table: purges can hand pages back (issue 22's retention), and
            // small pages, because every commit writes each page it touched to the WAL whole:
            // a check-in touches four or five scattered pages (its row, two indexes, its device's
            // duplicate key), so 1 KB pages write a quarter of what 4 KB pages would.
            try connection.execute("PRAGMA page_size = \(Self.pageSize); PRAGMA auto_vacuum = INCREMENTAL")  // in this order
        }
        guard try connection.text("PRAGMA journal_mode = WAL") == "wal" else {
            throw LedgerError(.failed, "\(path): cannot switch the database to WAL mode")
        }
        try connection.execute("PRAGMA synchronous = \(durability.rawValue.uppercased()); PRAGMA secure_delete = ON")
        try SQLiteSchema.migrate(connection, at: clock.now())
        ids = try CheckInIDCipher(storedKey: connection.text(LedgerSchema.selectCheckInIDKey), authenticator: authenticator, ledger: path)
        // Checkpoints run beside the writer, not inside a check-in's commit.
        let checkpointer = try SQLiteCheckpointer(file: file, durability: durability)
        connection.afterEachCommit { [unowned connection] pages in checkpointer.logGrew(to: pages, writer: connection) }
        self.checkpointer = checkpointer
        writer = SQLiteWriter(connection: connection)
        readers = SQLiteReaders(file: file)
    }

    /// Opens the ledger at `path` for reading only, changing nothing on disk, not even creating
    /// the write-ahead log's files: the evacuation roll on a full disk. With a write-ahead log
    /// of some content beside the file (a server running, or one that stopped without a
    /// checkpoint), SQLite reads through it (`mode=ro`); without one, or when that fails (its
    /// shared memory cannot be made), the file is read as it is (`immutable=1`: no locks, no
    /// shared memory; what only the log holds is not seen). The schema must be the newest.
    public init(readingOnly path: String, authenticator: any MessageAuthenticator = HMACAuthenticator()) throws(LedgerError) {
        self.path = path
        let file = try SQLiteDatabaseFile(path)
        guard access(file.resolvedPath, F_OK) == 0 else { throw LedgerError(.missing, "database \(path) does not exist") }
        var log = stat()
        let logged = stat(file.resolvedPath + "-wal", &log) == 0 && log.st_size > 0
        let base = "file:" + Self.uriEscaped(file.resolvedPath)
        var opened: (SQLiteConnection, String, Int64)?
        var failure: LedgerError?
        for uri in (logged ? [base + "?mode=ro", base + "?immutable=1"] : [base + "?immutable=1"]) {
            do throws(LedgerError) {
                let connection = try SQLiteConnection(file: file, create: false, readOnly: true, uri: uri)
                opened = (connection, uri, try connection.integer("PRAGMA application_id") ?? 0)
                break
            } catch {
                failure = error
            }
        }
        guard let (connection, uri, application) = opened else { throw failure ?? LedgerError(.cannotOpen, "\(path): cannot be read") }
        guard application == SQLiteSchema.applicationID else { throw LedgerError(.corrupt, "\(path): not a qrcheckin-server ledger") }
        let version = Int(try connection.integer("SELECT coalesce(max(version), 0) FROM schema_migrations") ?? 0)
        guard version == LedgerSchema.latestVersion else {
            throw LedgerError(version > LedgerSchema.latestVersion ? .tooNew : .failed,
                              "\(path): the ledger's schema is version \(version), this qrcheckin-server reads \(LedgerSchema.latestVersion) read-only")
        }
        ids = try CheckInIDCipher(storedKey: connection.text(LedgerSchema.selectCheckInIDKey), authenticator: authenticator, ledger: path)
        checkpointer = SQLiteCheckpointer(readOnly: connection)
        writer = SQLiteWriter(connection: connection)
        readers = SQLiteReaders(file: file, uri: uri)
    }

    /// `path` as a `file:` URI's path: every byte but unreserved ones and `/` percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || (0x30...0x39).contains(byte) || "/-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Creates an empty file of mode 0600 unless one exists; never follows a symbolic link.
    private static func createFile(_ file: SQLiteDatabaseFile) throws(LedgerError) {
        let path = file.path
        let descriptor = open(file.resolvedPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let code = errno
        guard code != EEXIST else { return }
        let reason = String(cString: strerror(code))
        throw LedgerError(code == EACCES || code == EPERM ? .permissionDenied : code == ENOENT ? .missing : .cannotOpen,
                          "cannot create database \(path): \(reason)")
    }

    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules,
                       completion: @escaping @Sendable (Result<Admission, LedgerError>) -> Void) {
        writer.submit({ [ids] connection throws(LedgerError) in try Self.record(checkIn, rules: rules, connection, ids) },
                      completion: completion)
    }

    public func finishWrites() {
        writer.finish()
    }

    /// The statements of one check-in, inside the writer's transaction. With a capacity, the
    /// open visits are counted first (the partial index of open visits: at most about the
    /// capacity's rows); the one writer makes count and insert one step.
    static func record(_ checkIn: NewCheckIn, rules: AdmissionRules, _ connection: SQLiteConnection,
                               _ ids: CheckInIDCipher) throws(LedgerError) -> Admission {
        if let capacity = rules.capacity {
            let count = try connection.statement(Self.countOpenAtVenue)
            try count.bind(1, checkIn.venue.rawValue)
            try count.bind(2, rules.openSince?.milliseconds ?? Int64.min)
            let inside = try count.step() ? Int(count.int64(0) ?? 0) : 0
            count.reset()
            if inside >= capacity {
                // A device inside within its duplicate time gets its receipt even when full.
                if let device = checkIn.device, let earlier = try earlier(venue: checkIn.venue, device: device, connection, ids),
                   checkIn.time.milliseconds - earlier.time.milliseconds < rules.duplicateSeconds * 1000 {
                    return .admitted(.duplicate(of: earlier))
                }
                return .full(inside: inside)
            }
        }
        if let device = checkIn.device {
            let claim = try connection.statement(Self.claimPresence)
            try claim.bind(1, checkIn.venue.rawValue)
            try claim.bind(2, device.rawValue)
            try claim.bind(3, checkIn.time.milliseconds)
            try claim.bind(4, rules.duplicateSeconds.multipliedReportingOverflow(by: 1000).partialValue)
            let claimed = try claim.step()
            claim.reset()
            if !claimed {
                guard let earlier = try earlier(venue: checkIn.venue, device: device, connection, ids) else {
                    throw LedgerError(.corrupt, "\(connection.path): a duplicate key names no check-in")
                }
                return .admitted(.duplicate(of: earlier))
            }
        }
        let insert = try connection.statement(Self.insertCheckIn)
        defer { insert.reset() }
        try SQLiteRows.bind(checkIn, to: insert)
        guard try insert.step(), let row = insert.int64(0) else {
            throw LedgerError(.failed, "\(connection.path): the insert returned no id")
        }
        return .admitted(.recorded(CheckIn(id: try ids.shownID(row: row), entry: checkIn)))
    }

    /// The check-in holding the duplicate key of `venue` and `device`, if any.
    private static func earlier(venue: VenueID, device: DeviceID, _ connection: SQLiteConnection,
                                _ ids: CheckInIDCipher) throws(LedgerError) -> CheckIn? {
        let earlier = try connection.statement(Self.earlierCheckIn)
        defer { earlier.reset() }
        try earlier.bind(1, venue.rawValue)
        try earlier.bind(2, device.rawValue)
        return try earlier.step() ? try SQLiteRows.checkIn(earlier, ids: ids) : nil
    }

    public func recordRefusal(_ refusal: Refusal) throws(LedgerError) {
        try writer.perform { connection throws(LedgerError) in try Self.insert(refusal, connection) }
    }

    public func recordRefusalLater(_ refusal: Refusal) {
        writer.submit({ connection throws(LedgerError) in try Self.insert(refusal, connection) }, completion: { _ in })
    }

    private static func insert(_ refusal: Refusal, _ connection: SQLiteConnection) throws(LedgerError) {
        let insert = try connection.statement("INSERT INTO refusals (venue, at_ms, reason, method) VALUES (?1, ?2, ?3, ?4)")
        try insert.bind(1, refusal.venue?.rawValue)
        try insert.bind(2, refusal.time.milliseconds)
        try insert.bind(3, refusal.reason.rawValue)
        try insert.bind(4, refusal.method.rawValue)
        try insert.run()
    }

    public func find(id: Int64) throws(LedgerError) -> CheckIn? {
        guard let row = ids.rowID(shown: id) else { return nil }
        return try readers.read { connection throws(LedgerError) in
            let select = try connection.statement("SELECT \(LedgerSchema.checkInColumns) FROM checkins WHERE id = ?1")
            defer { select.reset() }
            try select.bind(1, row)
            return try select.step() ? try SQLiteRows.checkIn(select, ids: ids) : nil
        }
    }

    public func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try readers.read { connection throws(LedgerError) in
            // One read transaction: the export is one consistent snapshot however long it runs.
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let (sql, bind) = Self.selection(query, columns: LedgerSchema.checkInColumns, ordered: true)
            let select = try connection.statement(sql)
            defer { select.reset() }
            try bind(select)
            var venues = VenueCache()
            while try select.step() {
                guard body(try SQLiteRows.checkIn(select, ids: ids, venues: &venues)) else { break }
            }
        }
    }

    public func count(_ query: CheckInQuery) throws(LedgerError) -> Int {
        var unlimited = query
        unlimited.limit = nil
        return try readers.read { connection throws(LedgerError) in
            let (sql, bind) = Self.selection(unlimited, columns: "count(*)", ordered: false)
            let select = try connection.statement(sql)
            defer { select.reset() }
            try bind(select)
            return try select.step() ? Int(select.int64(0) ?? 0) : 0
        }
    }

    public func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn] {
        guard let selection = ErasureSelection(subject, ids: ids) else { return [] }
        return try readers.read { connection throws(LedgerError) in
            let select = try selection.statement(selection.column.selectCheckIns, on: connection)
            defer { select.reset() }
            var rows: [CheckIn] = []
            while try select.step() { rows.append(try SQLiteRows.checkIn(select, ids: ids)) }
            return rows
        }
    }

    public func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.devicesPrefixed)
            defer { select.reset() }
            try select.bind(1, prefix)
            try select.bind(2, Int64(limit))
            var devices: [DeviceID] = []
            while try select.step() {
                guard let device = select.text(0).flatMap(DeviceID.init) else { throw LedgerError(.corrupt, "a check-in has a malformed device id") }
                devices.append(device)
            }
            return devices
        }
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        let erased = try writer.perform { [ids] connection throws(LedgerError) in try Self.erase(subject, ids: ids, connection) }
        // The visitor's rows must not linger in the write-ahead log either.
        if erased > 0 { compact() }
        return erased
    }

    /// Deletes `subject`'s check-ins and duplicate keys inside the open transaction (their
    /// pages handed back); returns how many. The caller compacts after the commit.
    static func erase(_ subject: ErasureSubject, ids: CheckInIDCipher, _ connection: SQLiteConnection) throws(LedgerError) -> Int {
        guard let selection = ErasureSelection(subject, ids: ids) else { return 0 }
        try selection.statement(selection.column.deletePresence, on: connection).run()
        try selection.statement(selection.column.deleteCheckIns, on: connection).run()
        let erased = connection.changes
        if erased > 0, try connection.integer("PRAGMA auto_vacuum") == Self.incrementalVacuum {
            try connection.execute("PRAGMA incremental_vacuum")
        }
        return erased
    }

    static func delete(_ table: String, before cutoff: WallTime, dryRun: Bool, _ connection: SQLiteConnection) throws(LedgerError) -> Int {
        let statement = try connection.statement(dryRun ? "SELECT count(*) FROM \(table) WHERE at_ms < ?1" : "DELETE FROM \(table) WHERE at_ms < ?1")
        defer { statement.reset() }
        try statement.bind(1, cutoff.milliseconds)
        if dryRun { return try statement.step() ? Int(statement.int64(0) ?? 0) : 0 }
        try statement.run()
        return connection.changes
    }

    /// The SELECT for `query` and a function binding its parameters.
    static func selection(_ query: CheckInQuery, columns: String, ordered: Bool)
        -> (String, (SQLiteStatement) throws(LedgerError) -> Void) {
        // Only the bounds the query has, with fixed parameter numbers: at most 16 statement texts
        // (each prepared once and cached). One text with `?2 IS NULL OR at_ms >= ?2` for every
        // combination cannot use `checkins_at` (SQLite plans it before the values are known), so
        // a tally of today or a count of one venue scanned the whole table: at a million
        // check-ins the console's dashboard took 450 ms, the same from the index 30 ms.
        var conditions: [String] = []
        if query.venue != nil { conditions.append("venue = ?1") }
        if query.from != nil { conditions.append("at_ms >= ?2") }
        if query.until != nil { conditions.append("at_ms < ?3") }
        if query.device != nil { conditions.append("device = ?4") }
        var sql = "SELECT \(columns) FROM checkins" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        if ordered { sql += " ORDER BY at_ms, id LIMIT ?5" }
        return (sql, { statement throws(LedgerError) in
            if let venue = query.venue { try statement.bind(1, venue.rawValue) }
            if let from = query.from { try statement.bind(2, from.milliseconds) }
            if let until = query.until { try statement.bind(3, until.milliseconds) }
            if let device = query.device { try statement.bind(4, device.rawValue) }
            if ordered { try statement.bind(5, query.limit.map { Int64(max(0, $0)) } ?? -1) }
        })
    }

    private static let claimPresence = SQLDialect.sqlite.render(LedgerSchema.claimPresence)
    static let countOpenAtVenue = SQLDialect.sqlite.render(LedgerSchema.countOpenAtVenue)
    private static let insertCheckIn = SQLDialect.sqlite.render(LedgerSchema.insertCheckIn)
    private static let earlierCheckIn = SQLDialect.sqlite.render(LedgerSchema.earlierCheckIn)
    private static let devicesPrefixed = SQLDialect.sqlite.render(LedgerSchema.devicesPrefixed)
    /// `PRAGMA auto_vacuum`'s value for INCREMENTAL.
    static let incrementalVacuum: Int64 = 2
}

extension String {
    /// The string with "0"s before it up to `count` characters.
    fileprivate func leftPadded(to count: Int) -> String {
        String(repeating: "0", count: Swift.max(0, count - self.count)) + self
    }
}
