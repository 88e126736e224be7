import ServerDomain
import ServerLedgerContract
import Testing

/// The in-memory ledger keeps every rule a database ledger must keep.
struct InMemoryLedgerTests {
    @Test(arguments: LedgerContract.cases) func contract(_ rule: LedgerContract.Case) throws {
        try rule.run(on: InMemoryLedger())
    }
}
