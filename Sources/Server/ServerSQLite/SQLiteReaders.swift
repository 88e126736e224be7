import ServerDomain
import Synchronization

/// Read connections, opened as needed and reused: WAL lets them read while the writer writes,
/// each seeing only committed transactions.
final class SQLiteReaders: Sendable {
    /// Idle connections kept for reuse at most.
    static let idleLimit = 8

    private let file: SQLiteDatabaseFile
    /// The URI read connections open instead of `file` (a ledger opened read-only), if any.
    private let uri: String?
    private let idle = Mutex<[SQLiteConnection]>([])

    init(file: SQLiteDatabaseFile, uri: String? = nil) {
        self.file = file
        self.uri = uri
    }

    /// Runs `body` on an idle connection (or a new one), then keeps the connection.
    func read<T>(_ body: (SQLiteConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let reused = idle.withLock { $0.popLast() }
        let connection: SQLiteConnection
        if let reused { connection = reused } else { connection = try open() }
        let result = Result { () throws(LedgerError) in try body(connection) }
        idle.withLock { if $0.count < Self.idleLimit { $0.append(connection) } }
        return try result.get()
    }

    private func open() throws(LedgerError) -> SQLiteConnection {
        let connection = try SQLiteConnection(file: file, create: false, readOnly: uri != nil, uri: uri)
        try connection.execute("PRAGMA query_only = ON")
        return connection
    }
}
