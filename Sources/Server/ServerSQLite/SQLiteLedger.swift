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
    /// The ledger's SQL, under the key of the ids its check-ins show.
    let sql: SQLLedger

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
        sql = SQLLedger(ids: try CheckInIDCipher(storedKey: connection.text(LedgerSchema.selectCheckInIDKey), authenticator: authenticator,
                                                 ledger: path))
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
        let version = Int(try connection.integer(LedgerSchema.selectVersion) ?? 0)
        guard version == LedgerSchema.latestVersion else {
            throw LedgerError(version > LedgerSchema.latestVersion ? .tooNew : .failed,
                              "\(path): the ledger's schema is version \(version), this qrcheckin-server reads \(LedgerSchema.latestVersion) read-only")
        }
        sql = SQLLedger(ids: try CheckInIDCipher(storedKey: connection.text(LedgerSchema.selectCheckInIDKey), authenticator: authenticator,
                                                 ledger: path))
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
        writer.submit({ [sql] connection throws(LedgerError) in try sql.record(checkIn, rules: rules, on: SQLiteSession(connection)) },
                      completion: completion)
    }

    public func finishWrites() {
        writer.finish()
    }

    public func recordRefusal(_ refusal: Refusal) throws(LedgerError) {
        try writer.perform { [sql] connection throws(LedgerError) in try sql.recordRefusal(refusal, on: SQLiteSession(connection)) }
    }

    public func recordRefusalLater(_ refusal: Refusal) {
        writer.submit({ [sql] connection throws(LedgerError) in try sql.recordRefusal(refusal, on: SQLiteSession(connection)) }, completion: { _ in })
    }

    /// Runs `body` on a read connection's session.
    func read<T>(_ body: (SQLiteSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try readers.read { connection throws(LedgerError) in try body(SQLiteSession(connection)) }
    }

    /// Runs `body` on a read connection inside one read transaction: one consistent snapshot
    /// however long it runs (an export, the open visits).
    func snapshot(_ body: (SQLiteSession) throws(LedgerError) -> Void) throws(LedgerError) {
        try readers.read { connection throws(LedgerError) in
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            try body(SQLiteSession(connection))
        }
    }

    public func find(id: Int64) throws(LedgerError) -> CheckIn? {
        try read { session throws(LedgerError) in try sql.find(id: id, on: session) }
    }

    public func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try snapshot { session throws(LedgerError) in try sql.export(query, on: session, body) }
    }

    public func count(_ query: CheckInQuery) throws(LedgerError) -> Int {
        try read { session throws(LedgerError) in try sql.count(query, on: session) }
    }

    public func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn] {
        try read { session throws(LedgerError) in try sql.checkIns(of: subject, on: session) }
    }

    public func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID] {
        try read { session throws(LedgerError) in try sql.devices(prefixed: prefix, limit: limit, on: session) }
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        let erased = try writer.perform { [sql] connection throws(LedgerError) in try sql.erase(subject, on: SQLiteSession(connection)) }
        // The visitor's rows must not linger in the write-ahead log either.
        if erased > 0 { compact() }
        return erased
    }

    /// `PRAGMA auto_vacuum`'s value for INCREMENTAL.
    static let incrementalVacuum: Int64 = 2
}

extension String {
    /// The string with "0"s before it up to `count` characters.
    fileprivate func leftPadded(to count: Int) -> String {
        String(repeating: "0", count: Swift.max(0, count - self.count)) + self
    }
}
