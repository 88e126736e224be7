/// Port: operator actions' atomicity. `transaction` runs its body in one database transaction
/// (SQLite: the writer's, alone, never batched with visitors' check-ins, so its failure fails
/// none of theirs; PostgreSQL: one pooled connection's BEGIN … COMMIT; memory: under its lock)
/// and returns its value once that committed: everything the body did through the transaction
/// is committed together, or, when the body throws or the commit fails, nothing is. How an
/// action's work and its audit entry are one (`AuditTrail`). Every engine implements it and
/// passes `TransactionContract`.
public protocol LedgerTransactions: Sendable {
    /// Runs `body` in a transaction of its own; `body` must use only the transaction it is given.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) async throws(LedgerError) -> T
}

/// A whole ledger: every port, as the composition root and the contract suites hold it. Each
/// use case and handler takes only the ports it uses. (Webhooks are not in it: the in-memory
/// ledger of the tests keeps none, and a composition root asks for `WebhookLedger` where it
/// delivers them.)
public typealias Ledger = VisitLedger & VisitLog & RefusalLog & AuditLog & AccountLedger & ErasureLedger & LedgerTransactions & APITokens
    & KioskFleet & VisitFlowLog
