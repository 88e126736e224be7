import CPostgres
import Glibc
import ServerDomain

/// One libpq connection: opened in `init`, closed in `deinit`, used by one thread at a time
/// (the pool hands it out). Statements with values run as prepared statements, prepared once
/// per connection and kept by their text; values travel as binary parameters.
final class PostgresConnection: @unchecked Sendable {
    /// The C connection; valid for the object's life.
    private let handle: OpaquePointer
    /// The database, for messages: its name and host, never the password.
    let target: String
    /// Prepared statements by their text: their names on this connection.
    private var prepared: [String: String] = [:]
    /// Commands sent since the pool handed the connection out, and whether the first of them
    /// could be sent again on another connection without doing anything twice.
    private(set) var commandsSinceCheckout = 0
    private(set) var firstCommandRepeatable = false
    /// Set when the connection must not be handed out again (a statement was cancelled on it).
    private(set) var abandoned = false
    /// The SQLSTATE of the last command that failed on this connection (nil: libpq's own
    /// failure), for a caller that treats one state apart.
    private(set) var lastFailureState: String?

    /// Connects with libpq's `keywords` and `values` (the connection string expanded from
    /// `dbname`, see `PostgresConnectionString`).
    init(keywords: [String], values: [String]) throws(LedgerError) {
        let connection = Self.connect(keywords, values)
        guard let connection else { throw LedgerError(.unavailable, "cannot connect to PostgreSQL: out of memory") }
        target = Self.describe(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw LedgerError(PostgresError.connectKind(message), "cannot connect to \(target): \(message)")
        }
        // libpq prints notices and the server's farewell ("terminating connection due to
        // administrator command") to stderr by default; the failure reaches the caller anyway.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    private static func connect(_ keywords: [String], _ values: [String]) -> OpaquePointer? {
        let keys = keywords.map { strdup($0) }, vals = values.map { strdup($0) }
        defer { (keys + vals).forEach { free($0) } }
        let keyPointers: [UnsafePointer<CChar>?] = keys.map { UnsafePointer($0) } + [nil]
        let valuePointers: [UnsafePointer<CChar>?] = vals.map { UnsafePointer($0) } + [nil]
        return PQconnectdbParams(keyPointers, valuePointers, 1)
    }

    private static func describe(_ connection: OpaquePointer) -> String {
        let database = PQdb(connection).map { String(cString: $0) } ?? "?"
        let host = PQhost(connection).map { String(cString: $0) } ?? ""
        let port = PQport(connection).map { String(cString: $0) } ?? ""
        let place = host.hasPrefix("/") ? "socket \(host)" : "\(host):\(port)"
        return "PostgreSQL database \(database) on \(place)"
    }

    /// The first line of a libpq message (the rest is hints such as "Is the server running…").
    static func firstLine(_ text: UnsafePointer<CChar>?) -> String {
        let whole = text.map { String(cString: $0) } ?? "unknown error"
        return String(whole.split(separator: "\n", maxSplits: 1).first ?? "unknown error")
            .trimmingPrefix(" ").description
    }

    /// Whether the connection can still be used: not broken, outside a transaction, and no
    /// word from the server waiting (a restarting server tells its clients before it closes).
    var isHealthy: Bool {
        guard !abandoned, PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        // An idle connection is sent nothing (no LISTEN, no query running): anything readable is
        // the server's farewell or the end of the connection. One poll, no wait.
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&socket, 1, 0) == 0
    }

    /// Whether a transaction is open on the connection (a statement in it is undone by a savepoint).
    var isInTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// Whether the connection broke or was abandoned (the pool then closes it).
    var isBroken: Bool { abandoned || PQstatus(handle) != CONNECTION_OK }

    /// Marks the connection as not to be reused: the pool closes it when it comes back.
    func abandon() { abandoned = true }

    /// The pool hands the connection out: counting starts again.
    func checkedOut() {
        commandsSinceCheckout = 0
        firstCommandRepeatable = false
    }

    private func sent(repeatable: Bool) {
        if commandsSinceCheckout == 0 { firstCommandRepeatable = repeatable }
        commandsSinceCheckout += 1
    }

    /// Runs a command without values (BEGIN, COMMIT, DDL); `repeatable` when sending it again
    /// after a lost connection does nothing twice.
    func execute(_ sql: String, repeatable: Bool = false) throws(LedgerError) {
        sent(repeatable: repeatable)
        _ = try check(PQexec(handle, sql), doing: "running a command")
    }

    /// Runs `sql` with `parameters` as a prepared statement and returns its result.
    func query(_ sql: String, _ parameters: [PostgresParameter] = [], repeatable: Bool = false) throws(LedgerError) -> PostgresResult {
        let name = try statementName(sql, parameters)
        sent(repeatable: repeatable)
        let result = parameters.withLibpqArrays { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        return try check(result, doing: "running a statement")
    }

    private func statementName(_ sql: String, _ parameters: [PostgresParameter]) throws(LedgerError) -> String {
        if let name = prepared[sql] { return name }
        let name = "qrcheckin_\(prepared.count + 1)"
        let types = parameters.map(\.type)
        sent(repeatable: true)
        _ = try check(PQprepare(handle, name, sql, Int32(types.count), types), doing: "preparing a statement")
        prepared[sql] = name
        return name
    }

    private func check(_ raw: OpaquePointer?, doing: String) throws(LedgerError) -> PostgresResult {
        guard let raw else { throw failure(nil, doing: doing) }
        let result = PostgresResult(raw)
        switch result.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return result
        default: throw failure(result, doing: doing)
        }
    }

    private func failure(_ result: PostgresResult?, doing: String) -> LedgerError {
        lastFailureState = result?.sqlState
        let lost = PQstatus(handle) != CONNECTION_OK
        let message = result?.primaryMessage ?? Self.firstLine(PQerrorMessage(handle))
        return PostgresError.ledgerError(sqlState: result?.sqlState, connectionLost: lost, "\(target): \(doing): \(message)")
    }
}

extension PostgresConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// BEGIN is the first command, so a connection found broken there is replaced by the pool
    /// and nothing was done.
    func transaction<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try execute("BEGIN", repeatable: true)
        let value: T
        do throws(LedgerError) {
            value = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        // A lost connection here leaves the outcome unknown: the caller answers 503 and
        // acknowledges nothing (the visitor's retry finds the check-in if it did commit).
        try execute("COMMIT")
        return value
    }
}
