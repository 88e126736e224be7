import CSQLite
import Glibc
import ServerDomain
import ServerLedgerSQL
import SharedDomain
import SharedSystem

/// A live copy of a SQLite ledger made with SQLite's online backup API (`sqlite3_backup_*`),
/// and the check of one (`verify`).
///
/// The copy is one `sqlite3_backup_step(-1)`: every page in one read transaction of a read
/// connection, so it is the database as it was at one commit while check-ins go on (WAL:
/// readers never wait for the writer, nor it for them). In smaller steps, every commit of the
/// server's writer (another connection) would restart the copy, and at 2,000 check-ins a
/// second it would never end. The price: the write-ahead log cannot be copied back past the
/// copy's snapshot while it runs, so it grows for that long.
///
/// The copy is written to a new file beside the destination (mode 0600, `O_EXCL`), switched
/// to a rollback journal (one self-contained file, no `-wal` beside it), checked with
/// `PRAGMA integrity_check`, synced, and only then given the destination's name: without
/// `replacing`, by a link that fails if the name exists (nothing is ever written over); with
/// it, by a rename over a regular file (never over a device or a directory). A failure leaves
/// no file behind.
public enum SQLiteBackup {
    /// Copies `ledger` to a new file at `target`; returns what the copy holds once it is
    /// checked, synced and named. Throws `.cannotOpen` when the target's name was taken
    /// meanwhile (and it may not be replaced), `.corrupt` when the copy fails its integrity check.
    public static func copy(_ ledger: SQLiteLedger, to target: BackupTarget) async throws(LedgerError) -> BackupReport {
        try await ledger.pool.run({ () throws(LedgerError) in try copyBlocking(ledger, to: target) }, refused: SQLiteLedger.refused)
    }

    /// `copy`'s work, on a thread that may block.
    private static func copyBlocking(_ ledger: SQLiteLedger, to target: BackupTarget) throws(LedgerError) -> BackupReport {
        let destination = target.path
        let partial = try target.createPartial()
        var published = false
        defer { if !published { partial.remove() } }
        do {
            let copy = try SQLiteConnection(file: partial.file, create: false)
            try ledger.readers.read { source throws(LedgerError) in try Self.copyPages(from: source, to: copy) }
            // One file: the copy's header says WAL (the source's); a rollback journal needs no
            // `-wal` beside it, so the file is the whole backup wherever it is copied.
            guard try copy.text("PRAGMA journal_mode = DELETE")?.lowercased() == "delete" else {
                throw LedgerError(.failed, "\(destination): cannot switch the copy to a rollback journal")
            }
            _ = try check(copy, name: destination)
        }
        try partial.sync()
        try target.publish(partial)
        published = true
        return try verify(destination)
    }

    /// Checks the ledger file at `path` without changing it: `PRAGMA integrity_check`, the
    /// ledger's application id and a schema this program reads; returns what it holds. Throws
    /// `.corrupt` when the check fails or the file is not a ledger.
    public static func verify(_ path: String) throws(LedgerError) -> BackupReport {
        let file = try SQLiteDatabaseFile(path)
        var info = stat()
        guard lstat(file.resolvedPath, &info) == 0 else {
            throw LedgerError(errno == ENOENT ? .missing : .cannotOpen, "\(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw LedgerError(.cannotOpen, "\(path): not a regular file") }
        // Read as it is (no locks, no journal made, nothing written); a file with a write-ahead
        // log beside it (a live ledger, not a backup) is read through the log.
        var wal = stat()
        let logged = stat(file.resolvedPath + "-wal", &wal) == 0 && wal.st_size > 0
        let uri = "file:" + SQLiteLedger.uriEscaped(file.resolvedPath) + (logged ? "?mode=ro" : "?immutable=1")
        let connection = try SQLiteConnection(file: file, create: false, readOnly: true, uri: uri)
        return try check(connection, name: path)
    }

    /// One step of every page: the copy is the source at one moment.
    private static func copyPages(from source: SQLiteConnection, to copy: SQLiteConnection) throws(LedgerError) {
        guard let backup = sqlite3_backup_init(copy.handle, "main", source.handle, "main") else {
            throw copy.error(sqlite3_errcode(copy.handle), "cannot begin the backup")
        }
        var status = sqlite3_backup_step(backup, -1)
        // BUSY or LOCKED: the source's read lock could not be had at once (a WAL recovery).
        var tries = 0
        while (status & 0xff == SQLITE_BUSY || status & 0xff == SQLITE_LOCKED) && tries < 50 {
            tries += 1
            usleep(20_000)
            status = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else { throw copy.error(status, "cannot copy the ledger") }
        guard finished == SQLITE_OK else { throw copy.error(finished, "cannot finish the backup") }
    }

    /// `PRAGMA integrity_check` and what the ledger on `connection` holds.
    private static func check(_ connection: SQLiteConnection, name: String) throws(LedgerError) -> BackupReport {
        // quick_check would skip the indexes' agreement with the rows: the whole check.
        let statement = try connection.statement("PRAGMA integrity_check")
        var problems: [String] = []
        while try statement.step() { problems.append(statement.text(0) ?? "") }
        statement.reset()
        guard problems == ["ok"] else {
            throw LedgerError(.corrupt, "\(name): integrity check failed: " + problems.prefix(5).joined(separator: "; "))
        }
        guard try connection.integer("PRAGMA application_id") == SQLiteSchema.applicationID else {
            throw LedgerError(.corrupt, "\(name): not a qrcheckin-server ledger")
        }
        let version = Int(try connection.integer(LedgerSchema.selectVersion) ?? 0)
        guard version <= LedgerSchema.latestVersion else {
            throw LedgerError(.tooNew, "\(name): the ledger's schema is version \(version), newer than this qrcheckin-server knows (\(LedgerSchema.latestVersion))")
        }
        let pages = try connection.integer("PRAGMA page_count") ?? 0
        let pageSize = try connection.integer("PRAGMA page_size") ?? 0
        return BackupReport(path: name, schemaVersion: version, checkIns: Int(try connection.integer("SELECT count(*) FROM checkins") ?? 0),
                            newest: try connection.integer("SELECT max(at_ms) FROM checkins").map(WallTime.init(milliseconds:)),
                            bytes: pages * pageSize)
    }
}

/// What a backup holds, as its check found it.
public struct BackupReport: Hashable, Sendable {
    /// The file.
    public let path: String
    /// Its schema's version.
    public let schemaVersion: Int
    /// Check-ins in it.
    public let checkIns: Int
    /// The newest check-in's time, if any.
    public let newest: WallTime?
    /// Its size (pages × page size).
    public let bytes: Int64
}
