import ServerDomain
import ServerLedgerSQL
import SharedDomain

extension PostgresLedger {
    /// One pooled connection inside BEGIN … COMMIT.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try write { session throws(LedgerError) in try body(SQLTransaction(sql, on: session)) }
    }
}
