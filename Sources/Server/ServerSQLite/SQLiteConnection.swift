import CSQLite
import Glibc
import ServerDomain

/// One SQLite connection: opened in `init`, closed in `deinit`. Used by one thread at a time
/// (the ledger hands connections out one at a time), so SQLite's own mutexes are off.
final class SQLiteConnection: @unchecked Sendable {
    /// The C handle; valid for the object's life.
    let handle: OpaquePointer
    /// The database file, for messages.
    let path: String
    /// Prepared statements kept by their text: a check-in runs the same few statements.
    private var statements: [String: SQLiteStatement] = [:]
    /// The same statements found by where their text is stored (its address and length): the
    /// ledger's statements are texts made once (`SQLStatement`s in static constants), so a
    /// lookup hashes two integers instead of 100 to 700 bytes of SQL (SipHash over a check-in's
    /// statements was 2 % of its instructions). Each entry keeps its text, compared on a hit
    /// (the same storage compares at once): a freed text whose address another text reuses
    /// finds its own statement through `statements`, never the wrong one.
    private var stored: [StoredText: (sql: String, statement: SQLiteStatement)] = [:]
    /// What runs after each commit (see `afterEachCommit`); kept alive as long as the handle.
    private var commitHook: CommitHook?

    /// Opens (with `create`, creates) the database `file` by its resolved path (no symbolic
    /// link is followed there: the walk that resolved it judged the links on the way). With
    /// `uri` (`file:…?mode=ro`, made of the resolved path), opens that URI instead. Opened for
    /// writing, a file SQLite could open only for reading is refused (`readOnly`), rather than
    /// failing at the first write with "attempt to write a readonly database" or, for the
    /// write-ahead log, "unable to open database file".
    init(file: SQLiteDatabaseFile, create: Bool, readOnly: Bool = false, uri: String? = nil) throws(LedgerError) {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if uri != nil { flags |= SQLITE_OPEN_URI }
        let status = sqlite3_open_v2(uri ?? file.resolvedPath, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { Self.message($0, status) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError.ledgerError(status, "cannot open database \(file.path): \(message)")
        }
        // SQLite falls back to reading when the file cannot be opened for writing (EACCES,
        // EPERM, EROFS), and says so only here.
        if !readOnly && sqlite3_db_readonly(handle, "main") == 1 {
            sqlite3_close_v2(handle)
            throw LedgerError(.readOnly, "database \(file.path) is read-only (\(Self.whyReadOnly(file.resolvedPath))): "
                              + "qrcheckin-server writes to it (check-ins, accounts, the audit log)")
        }
        self.handle = handle
        self.path = file.path
        // Another connection's write lock is waited for (a checkpoint, a purge), not failed.
        sqlite3_busy_timeout(handle, 5000)
    }

    /// SQLite's message for `status` on `handle`, with what it refused (`SQLiteError.detail`).
    private static func message(_ handle: OpaquePointer, _ status: Int32) -> String {
        let text = String(cString: sqlite3_errmsg(handle))
        guard let detail = SQLiteError.detail(status, systemErrno: sqlite3_system_errno(handle)) else { return text }
        return "\(text) (\(detail))"
    }

    /// Why `path` cannot be written, as the kernel says it (`access(W_OK)`).
    private static func whyReadOnly(_ path: String) -> String {
        guard access(path, W_OK) != 0 else { return "SQLite could open it for reading only" }
        let code = errno
        switch code {
        case EROFS: return "its file system is mounted read-only"
        case EPERM: return "the file is immutable (chattr +i)"
        case EACCES:
            var status = stat()
            guard stat(path, &status) == 0 else { return String(cString: strerror(code)) }
            let mode = String(status.st_mode & 0o7777, radix: 8)
            return "mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode), owner uid \(status.st_uid): "
                + "uid \(geteuid()) may not write it"
        default: return String(cString: strerror(code))
        }
    }

    deinit {
        stored.removeAll()
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `body` after each commit of this connection, on its thread, with the pages now in
    /// the write-ahead log. This replaces SQLite's automatic checkpoint on this connection.
    func afterEachCommit(_ body: @escaping (Int32) -> Void) {
        let hook = CommitHook(body)
        commitHook = hook
        sqlite3_wal_hook(handle, { context, _, _, pages in
            Unmanaged<CommitHook>.fromOpaque(context!).takeUnretainedValue().body(pages)
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws(LedgerError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            let detail = SQLiteError.detail(status, systemErrno: sqlite3_system_errno(handle)).map { " (\($0))" } ?? ""
            throw SQLiteError.ledgerError(status, "\(path): \(text)\(detail)")
        }
    }

    /// Runs `sql`, one statement without results, as `execute` does (the same errors), but
    /// prepared once and kept: every write transaction's `BEGIN IMMEDIATE` and `COMMIT`, which
    /// `sqlite3_exec` parsed anew each time (a tenth of a check-in's instructions).
    func executeKept(_ sql: String) throws(LedgerError) {
        let statement = try statement(sql)
        let status = statement.stepStatus()
        guard status == SQLITE_DONE || status == SQLITE_ROW else {
            let text = String(cString: sqlite3_errmsg(handle))
            let detail = SQLiteError.detail(status, systemErrno: sqlite3_system_errno(handle)).map { " (\($0))" } ?? ""
            statement.reset()
            throw SQLiteError.ledgerError(status, "\(path): \(text)\(detail)")
        }
        statement.reset()
    }

    /// The prepared statement for `sql`, reset and with its bindings cleared, kept for reuse.
    func statement(_ sql: String) throws(LedgerError) -> SQLiteStatement {
        let place = sql.utf8.withContiguousStorageIfAvailable { StoredText(address: UInt(bitPattern: $0.baseAddress), count: $0.count) }
        if let place, let kept = stored[place], kept.sql == sql {
            kept.statement.reset()
            return kept.statement
        }
        let statement = try statement(text: sql)
        if let place {
            // Texts made per call (a page's query) leave entries of freed addresses: bounded.
            if stored.count >= Self.storedLimit { stored.removeAll(keepingCapacity: true) }
            stored[place] = (sql, statement)
        }
        return statement
    }

    /// Entries of `stored` at most (the ledger has about 150 statements).
    private static let storedLimit = 512

    /// Where a statement's text is stored, as `stored` keys it.
    private struct StoredText: Hashable {
        let address: UInt
        let count: Int
    }

    /// The prepared statement for `sql` found by its text, or prepared now.
    private func statement(text sql: String) throws(LedgerError) -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        var raw: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard status == SQLITE_OK, let raw else { throw error(status, "cannot prepare a statement") }
        let statement = SQLiteStatement(raw, connection: self)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql` as an integer (a pragma, a count).
    func integer(_ sql: String) throws(LedgerError) -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The first column of the first row of `sql` as text.
    func text(_ sql: String) throws(LedgerError) -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// The ledger error for a failed call, with SQLite's message, what it refused and what was
    /// being done.
    func error(_ status: Int32, _ doing: String) -> LedgerError {
        SQLiteError.ledgerError(status, "\(path): \(doing): \(Self.message(handle, status))")
    }

    /// Rows the last statement changed.
    var changes: Int { Int(sqlite3_changes64(handle)) }
}

/// The closure of `SQLiteConnection.afterEachCommit`, behind the C hook's context pointer.
private final class CommitHook {
    let body: (Int32) -> Void
    init(_ body: @escaping (Int32) -> Void) { self.body = body }
}
