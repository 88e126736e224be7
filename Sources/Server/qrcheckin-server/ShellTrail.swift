import ServerDomain
import SharedCLI
import SharedDomain
import SharedSystem

extension AuditTrail {
    /// The audit trail of the user at this shell (`OperatorIdentity`: the real user, or sudo's),
    /// from `cli`: every command that reads or changes personal data acts through it.
    static func shell(_ ledger: any LedgerTransactions, _ context: CommandContext, clock: any WallClock = SystemClock()) -> AuditTrail {
        AuditTrail(ledger: ledger, actor: .shell(OperatorIdentity.current(environment: context.environment)), clock: clock)
    }
}
