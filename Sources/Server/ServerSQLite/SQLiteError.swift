import CSQLite
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
}
