import ServerDomain
import ServerLedgerSQL

/// A SQLite connection as the ledger's SQL uses it (`SQLSession`): statements prepared once
/// and kept by their text, values bound without a copy of their bytes, rows stepped one by one.
/// Lives for the length of one read or one write job.
struct SQLiteSession: SQLSession {
    let connection: SQLiteConnection

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    var dialect: SQLDialect { .sqlite }
    var target: String { connection.path }

    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) throws(LedgerError) -> Bool) throws(LedgerError) {
        let statement = try prepared(sql, values)
        defer { statement.reset() }
        while try statement.step() {
            guard try row(statement) else { break }
        }
    }

    func checkIns(_ sql: String, _ values: [SQLValue], ids: CheckInIDCipher, _ each: (CheckIn) -> Void) throws(LedgerError) {
        let statement = try prepared(sql, values)
        defer { statement.reset() }
        var venues = VenueCache()
        while try statement.step() {
            each(try LedgerRows.checkIn(statement, ids: ids, venues: &venues))
        }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int {
        try prepared(sql, values).run()
        return connection.changes
    }

    /// Secure deletion overwrote the rows; with incremental auto-vacuum (every new ledger) the
    /// freed pages go back to the file system at the next checkpoint.
    func freePages() throws(LedgerError) {
        if try connection.integer("PRAGMA auto_vacuum") == SQLiteLedger.incrementalVacuum {
            try connection.execute("PRAGMA incremental_vacuum")
        }
    }

    /// The cached statement for `sql`, reset, `values` bound to ?1….
    private func prepared(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> SQLiteStatement {
        let statement = try connection.statement(sql)
        for (index, value) in values.enumerated() {
            switch value {
            case .integer(let integer): try statement.bind(Int32(index + 1), integer)
            case .text(let text): try statement.bind(Int32(index + 1), text)
            }
        }
        return statement
    }
}

/// A stepped statement is its current row.
extension SQLiteStatement: SQLRow {
    func integer(_ column: Int) throws(LedgerError) -> Int64? {
        int64(Int32(column))
    }

    func text(_ column: Int) -> String? {
        text(Int32(column))
    }

    func withBytes<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        body(bytes(Int32(column)))
    }
}
