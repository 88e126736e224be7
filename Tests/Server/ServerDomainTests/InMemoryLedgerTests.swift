import ServerDomain
import ServerLedgerContract
import Testing

/// The in-memory ledger keeps every rule a database ledger must keep.
struct InMemoryLedgerTests {
    @Test(arguments: LedgerContract.cases) func contract(_ rule: LedgerContract.Case) throws {
        try rule.run(on: InMemoryLedger())
    }

    @Test(arguments: AccountContract.cases) func accounts(_ rule: AccountContract.Case) throws {
        try rule.run(on: InMemoryLedger())
    }

    @Test(arguments: APITokenContract.cases) func tokens(_ rule: APITokenContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    /// Its storage is the object itself: opened again, it is the same one.
    @Test(arguments: LedgerContract.storageCases) func storage(_ rule: LedgerContract.StorageCase) throws {
        let ledger = InMemoryLedger()
        try rule.run(on: LedgerContract.Storage(open: { ledger }, openAnother: { InMemoryLedger() }))
    }
}
