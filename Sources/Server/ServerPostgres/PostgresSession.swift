import ServerDomain
import ServerLedgerSQL

/// A PostgreSQL connection as the ledger's SQL uses it (`SQLSession`): prepared statements in
/// binary format, values typed even when NULL. A read session's statements may be sent again on
/// a new connection when the pooled one turned out broken (`repeatable`: the pool retries a
/// read whose first command found the connection gone); a write's may not.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    /// Whether a statement of this session may be sent again after a lost connection.
    let repeatable: Bool

    init(_ connection: PostgresConnection, repeatable: Bool) {
        self.connection = connection
        self.repeatable = repeatable
    }

    var dialect: SQLDialect { .postgresql }
    var target: String { connection.target }

    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) throws(LedgerError) -> Bool) throws(LedgerError) {
        let result = try connection.query(sql, values.map(PostgresParameter.init), repeatable: repeatable)
        for index in 0..<result.rowCount {
            guard try row(PostgresRow(result: result, row: index)) else { break }
        }
    }

    func checkIns(_ sql: String, _ values: [SQLValue], ids: CheckInIDCipher, _ each: (CheckIn) -> Void) throws(LedgerError) {
        let result = try connection.query(sql, values.map(PostgresParameter.init), repeatable: repeatable)
        var venues = VenueCache()
        for index in 0..<result.rowCount {
            each(try LedgerRows.checkIn(PostgresRow(result: result, row: index), ids: ids, venues: &venues))
        }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int {
        try connection.query(sql, values.map(PostgresParameter.init), repeatable: repeatable).changedRows
    }

    /// Tries `record` up to `PostgresLedger.recordTries` times while the row id the identity
    /// gave is held by an imported check-in (a unique violation), each try undone alone: in a
    /// transaction by a savepoint, outside one by the failed statement itself.
    func retryingTakenRowID<T>(_ record: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        let inTransaction = connection.isInTransaction
        var tries = 1
        while true {
            if inTransaction { try connection.execute("SAVEPOINT record") }
            do throws(LedgerError) {
                let value = try record()
                if inTransaction { try connection.execute("RELEASE SAVEPOINT record") }
                return value
            } catch where connection.lastFailureState == PostgresError.uniqueViolation && tries < PostgresLedger.recordTries {
                // The statement was undone whole, the claim with it; the next id is free.
                if inTransaction { try connection.execute("ROLLBACK TO SAVEPOINT record") }
                tries += 1
            }
        }
    }
}

extension PostgresParameter {
    /// The parameter of `value`.
    init(_ value: SQLValue) {
        switch value {
        case .integer(let integer): self = .int64(integer)
        case .text(let text): self = .text(text)
        }
    }
}

/// One row of a result.
struct PostgresRow: SQLRow {
    let result: PostgresResult
    let row: Int

    func integer(_ column: Int) throws(LedgerError) -> Int64? {
        try result.int64(row, column)
    }

    func text(_ column: Int) -> String? {
        result.text(row, column)
    }

    func withBytes<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        result.withBytes(row, column, body)
    }
}
