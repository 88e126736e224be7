import CSQLite
import Glibc
import ServerDomain

/// SQLite's result codes as ledger failures.
enum SQLiteError {
    /// The ledger error of kind fitting `status` (an extended result code).
    static func ledgerError(_ status: Int32, _ message: String) -> LedgerError {
        let kind: LedgerError.Kind = switch status & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .full
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_PERM, SQLITE_AUTH, SQLITE_READONLY: .permissionDenied
        default: .failed
        }
        return LedgerError(kind, message)
    }

    /// What SQLite refused, beyond its message: "unable to open database file" says nothing of
    /// a symbolic link in the path or a denied permission. An extended code's name and meaning
    /// ("SQLITE_CANTOPEN_SYMLINK: a symbolic link in the path"), else the primary code's name
    /// and the failed system call's error ("SQLITE_CANTOPEN: Permission denied"); nil when
    /// there is neither (SQLite's message says it all).
    static func detail(_ status: Int32, systemErrno: Int32) -> String? {
        if let named = extendedNames[status] { return "\(named.name): \(named.meaning)" }
        guard systemErrno != 0, let name = primaryNames[status & 0xff] else { return nil }
        return "\(name): \(String(cString: strerror(systemErrno)))"
    }

    /// The extended codes of opening and writing (sqlite3.h), named as sqlite3.h names them.
    private static let extendedNames: [Int32: (name: String, meaning: String)] = [
        SQLITE_CANTOPEN | 1 << 8: ("SQLITE_CANTOPEN_NOTEMPDIR", "no directory for temporary files"),
        SQLITE_CANTOPEN | 2 << 8: ("SQLITE_CANTOPEN_ISDIR", "the path is a directory"),
        SQLITE_CANTOPEN | 3 << 8: ("SQLITE_CANTOPEN_FULLPATH", "the full path cannot be made"),
        SQLITE_CANTOPEN | 4 << 8: ("SQLITE_CANTOPEN_CONVPATH", "the path cannot be converted"),
        SQLITE_CANTOPEN | 6 << 8: ("SQLITE_CANTOPEN_SYMLINK", "a symbolic link in the path"),
        SQLITE_READONLY | 1 << 8: ("SQLITE_READONLY_RECOVERY", "the write-ahead log needs recovery by a writer"),
        SQLITE_READONLY | 2 << 8: ("SQLITE_READONLY_CANTLOCK", "the shared memory cannot be locked for writing"),
        SQLITE_READONLY | 3 << 8: ("SQLITE_READONLY_ROLLBACK", "a hot journal needs rolling back by a writer"),
        SQLITE_READONLY | 4 << 8: ("SQLITE_READONLY_DBMOVED", "the database file was moved or removed"),
        SQLITE_READONLY | 5 << 8: ("SQLITE_READONLY_CANTINIT", "the shared memory cannot be initialised"),
        SQLITE_READONLY | 6 << 8: ("SQLITE_READONLY_DIRECTORY", "the directory is read-only"),
    ]

    /// The primary codes a system call's error comes with.
    private static let primaryNames: [Int32: String] = [
        SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_IOERR: "SQLITE_IOERR", SQLITE_READONLY: "SQLITE_READONLY",
        SQLITE_PERM: "SQLITE_PERM", SQLITE_FULL: "SQLITE_FULL",
    ]
}
