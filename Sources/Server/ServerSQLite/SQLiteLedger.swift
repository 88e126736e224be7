import Glibc
import ServerDomain
import ServerLedgerSQL
import SharedAsync
import SharedDomain
import SharedSystem

/// The embedded ledger: one SQLite file in WAL mode (readers never wait for the writer),
/// migrated on open, one writer with group commit on a thread of its own, reads on the
/// blocking pool (each a connection of `SQLiteReaders`), checkpoints on a thread of their own.
/// A check-in is acknowledged only after its transaction has committed (`SQLiteDurability`
/// says how far). Every port is `SQLEngine`'s, written once with PostgreSQL's.
public final class SQLiteLedger: SQLEngine, Ledger {
    /// The page size of a new database, in bytes.
    static let pageSize = 1024

    /// The database file.
    public let path: String
    let writer: SQLiteWriter
    let readers: SQLiteReaders
    let checkpointer: SQLiteCheckpointer
    /// Where reads run: a connection each, as many at once as the pool has threads.
    let pool: BlockingPool
    /// The ledger's SQL, under the key of the ids its check-ins show.
    public let sql: SQLLedger
    public let observer: (any LedgerObserver)?

    /// Opens the ledger at `path`, creating it (mode 0600: a visitor log is personal data)
    /// when `create` is true, and brings its schema up to date. Its directory must pass the
    /// directory-trust rule, which follows the links on the way it trusts (`SQLiteDatabaseFile`:
    /// systemd's state directory); the file itself must not be a link. With `create` and
    /// `directoryMode`, a missing directory is made. `authenticator` computes the HMACs of the
    /// ids check-ins show. Reads run on `pool`; `observer` is told of every call's answer.
    /// Blocks (files, the schema): from async code, `open`.
    public init(path: String, create: Bool, directoryMode: mode_t? = nil, durability: SQLiteDurability = .full,
                clock: any WallClock, authenticator: any MessageAuthenticator = HMACAuthenticator(), pool: BlockingPool,
                observer: (any LedgerObserver)? = nil) throws(LedgerError) {
        self.path = path
        self.pool = pool
        self.observer = observer
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
        writer = try SQLiteWriter(connection: connection)
        readers = SQLiteReaders(file: file)
    }

    /// Opens the ledger as `init` does, on `pool` (opening and migrating block).
    public static func open(path: String, create: Bool, directoryMode: mode_t? = nil, durability: SQLiteDurability = .full,
                            clock: any WallClock, pool: BlockingPool, observer: (any LedgerObserver)? = nil) async throws(LedgerError) -> SQLiteLedger {
        try await pool.run({ () throws(LedgerError) in
            try SQLiteLedger(path: path, create: create, directoryMode: directoryMode, durability: durability, clock: clock, pool: pool, observer: observer)
        }, refused: Self.refused)
    }

    /// Opens the ledger as `init(readingOnly:)` does, on `pool`.
    public static func open(readingOnly path: String, pool: BlockingPool) async throws(LedgerError) -> SQLiteLedger {
        try await pool.run({ () throws(LedgerError) in try SQLiteLedger(readingOnly: path, pool: pool) }, refused: Self.refused)
    }

    /// A call the blocking pool refused: it is shut down (the server is stopping), or the task
    /// was cancelled before the work began. Nothing was done.
    static func refused(_ refusal: BlockingPoolError<Never>) -> LedgerError {
        LedgerError(.unavailable, "the ledger's work was refused: \(refusal)")
    }

    /// Opens the ledger at `path` for reading only, changing nothing on disk, not even creating
    /// the write-ahead log's files: the evacuation roll on a full disk. With a write-ahead log
    /// of some content beside the file (a server running, or one that stopped without a
    /// checkpoint), SQLite reads through it (`mode=ro`); without one, or when that fails (its
    /// shared memory cannot be made), the file is read as it is (`immutable=1`: no locks, no
    /// shared memory; what only the log holds is not seen). The schema must be the newest.
    public init(readingOnly path: String, authenticator: any MessageAuthenticator = HMACAuthenticator(), pool: BlockingPool) throws(LedgerError) {
        self.path = path
        self.pool = pool
        observer = nil
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
        checkpointer = try SQLiteCheckpointer(readOnly: connection)
        writer = try SQLiteWriter(connection: connection)
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
        let descriptor = Glibc.open(file.resolvedPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            Glibc.close(descriptor)
            return
        }
        let code = errno
        guard code != EEXIST else { return }
        let reason = String(cString: strerror(code))
        throw LedgerError(code == EACCES || code == EPERM ? .permissionDenied : code == ENOENT ? .missing : .cannotOpen,
                          "cannot create database \(path): \(reason)")
    }

    // MARK: SQLEngine

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await pool.run({ [readers] () throws(LedgerError) in
            try readers.read { connection throws(LedgerError) in try body(SQLiteSession(connection)) }
        }, refused: Self.refused)
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await writer.perform { connection throws(LedgerError) in try body(SQLiteSession(connection)) }
    }

    public func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await writer.perform(alone: true) { connection throws(LedgerError) in try body(SQLiteSession(connection)) }
    }

    public func writeLater(_ body: @escaping @Sendable (any SQLSession) throws(LedgerError) -> Void) {
        writer.submit({ connection throws(LedgerError) in try body(SQLiteSession(connection)) }, completion: { _ in })
    }

    /// The visitor's rows must not linger in the write-ahead log either.
    public func erased() async {
        await compact()
    }

    /// Lets the writes under way commit and the checkpoint under way end, then stops the
    /// writer's and the checkpointer's threads: later writes fail. `serve`'s last step.
    public func close() async {
        await writer.close()
        await checkpointer.stop()
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
