import ServerDomain
import ServerLedgerContract
import Testing

/// The in-memory ledger keeps every rule a database ledger must keep.
struct InMemoryLedgerTests {
    @Test(arguments: KioskFleetContract.cases) func kiosks(_ rule: KioskFleetContract.Case) async throws {
        try await rule.run(on: Self.fleet(InMemoryLedger()))
    }

    static func fleet<L: KioskFleet & CheckInLedger>(_ ledger: L) -> KioskFleetContract.Subject {
        KioskFleetContract.Subject(fleet: ledger, steer: { key, change, by, time throws(LedgerError) in
            try ledger.transaction { transaction throws(LedgerError) in try transaction.steerKiosk(key, change, by: by, at: time) }
        }, forget: { key throws(LedgerError) in
            try ledger.transaction { transaction throws(LedgerError) in try transaction.forgetKiosk(key) }
        })
    }
    @Test(arguments: LedgerContract.cases) func contract(_ rule: LedgerContract.Case) throws {
        try rule.run(on: InMemoryLedger())
    }

    @Test(arguments: AccountContract.cases) func accounts(_ rule: AccountContract.Case) throws {
        try rule.run(on: InMemoryLedger())
    }

    /// Its storage is the object itself: opened again, it is the same one.
    @Test(arguments: LedgerContract.storageCases) func storage(_ rule: LedgerContract.StorageCase) throws {
        let ledger = InMemoryLedger()
        try rule.run(on: LedgerContract.Storage(open: { ledger }, openAnother: { InMemoryLedger() }))
    }
}
