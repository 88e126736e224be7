/// The ledger's tables whose rows are kept for a time (`at_ms`) and purged by it.
public enum LedgerTable: String, Sendable, CaseIterable {
    /// The visitor log.
    case checkins
    /// The duplicate keys (they go with the check-ins that opened them).
    case presence
    /// Refused scans.
    case refusals
    /// The audit log.
    case audit
}
