import ServerDomain
import ServerLedgerTesting
import ServerLedgerContract
import Testing

/// The in-memory ledger keeps every rule a database ledger must keep.
struct InMemoryLedgerTests {
    @Test(arguments: LedgerContract.visitLedger) func visits(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: LedgerContract.visitLog) func log(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: LedgerContract.refusalLog) func refusals(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: LedgerContract.auditLog) func audit(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: LedgerContract.erasure) func erasure(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: LedgerContract.transactions) func transactions(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    @Test(arguments: AccountContract.cases) func accounts(_ rule: AccountContract.Case) async throws {
        try await rule.run(on: InMemoryLedger())
    }

    /// Its storage is the object itself: opened again, it is the same one.
    @Test(arguments: LedgerContract.storageCases) func storage(_ rule: LedgerContract.StorageCase) async throws {
        let ledger = InMemoryLedger()
        try await rule.run(on: LedgerContract.Storage(open: { ledger }, openAnother: { InMemoryLedger() }))
    }
}
