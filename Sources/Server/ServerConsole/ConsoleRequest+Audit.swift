import ServerDomain

extension ConsoleRequest {
    /// The audit trail of this request's operator: the signed-in account, from the request's
    /// address. Every page that reads or changes personal data acts through it (`AuditTrail`).
    func trail(_ parts: ConsoleSite.Parts) -> AuditTrail {
        AuditTrail(ledger: parts.transactions, actor: Operator(name: actor, source: source), clock: parts.clock)
    }
}
