import ServerDomain
import ServerLedgerSQL
import SharedDomain

extension SQLiteLedger {
    /// The writer's connection inside a transaction of its own (`SQLiteWriter.performAlone`),
    /// never batched with visitors' check-ins (its failure fails none of theirs).
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let (value, erased) = try writer.performAlone { [sql] connection throws(LedgerError) in
            let transaction = SQLTransaction(sql, on: SQLiteSession(connection))
            return (try body(transaction), transaction.erased)
        }
        // Erased rows must not linger in the write-ahead log either (as `erase`).
        if erased { compact() }
        return value
    }
}
