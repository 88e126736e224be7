import ServerDomain

/// PostgreSQL's failures as ledger failures: by SQLSTATE when the server sent one, else by the
/// connection's state (a connection that broke is a database that went away: 503, try again).
enum PostgresError {
    /// unique_violation: a row with that key exists (the statement changed nothing).
    static let uniqueViolation = "23505"

    /// The ledger error for an error result with `sqlState` (nil when libpq produced the
    /// failure itself: the connection broke or could not be made).
    static func ledgerError(sqlState: String?, connectionLost: Bool, _ message: String) -> LedgerError {
        LedgerError(kind(sqlState: sqlState, connectionLost: connectionLost), message)
    }

    /// The kind of a failure with `sqlState`, or of a broken connection without one.
    static func kind(sqlState: String?, connectionLost: Bool) -> LedgerError.Kind {
        guard let state = sqlState, state.utf8.count == 5 else { return connectionLost ? .unavailable : .failed }
        switch state {
        // The server is shutting down, restarting or starting up; the connection was lost.
        case "57P01", "57P02", "57P03", "57P05": return .unavailable
        case "53100": return .full  // disk_full
        case "3D000": return .missing  // invalid_catalog_name: no such database
        case "42501": return .permissionDenied
        case "XX001", "XX002": return .corrupt  // data_corrupted, index_corrupted
        // serialization_failure, deadlock_detected, lock_not_available, query_canceled (a timeout)
        case "40001", "40P01", "55P03", "57014": return .busy
        default: break
        }
        switch state.prefix(2) {
        case "08": return .unavailable  // connection_exception
        case "53": return .busy  // insufficient_resources: too many connections, out of memory
        case "28": return .permissionDenied  // invalid_authorization_specification
        default: return connectionLost ? .unavailable : .failed
        }
    }

    /// The kind of a failure to connect, which libpq reports only as text: the server's own
    /// words for a missing database or refused credentials (in English, the default
    /// `lc_messages`), anything else as the database being unreachable.
    static func connectKind(_ message: String) -> LedgerError.Kind {
        if message.contains("database \"") && message.contains("does not exist") { return .missing }
        if message.contains("authentication failed") || message.contains("pg_hba.conf")
            || message.contains("permission denied") || message.contains("password") { return .permissionDenied }
        if message.contains("too many clients") || message.contains("remaining connection slots") { return .busy }
        return .unavailable
    }
}
