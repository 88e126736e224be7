import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// `PostgresLedger`'s transaction: one pooled connection inside BEGIN … COMMIT, each method the
/// statements the ledger's method of the same name runs. Lives for the length of one body.
final class PostgresTransaction: LedgerTransaction {
    private let ledger: PostgresLedger
    private let connection: PostgresConnection

    init(_ ledger: PostgresLedger, _ connection: PostgresConnection) {
        self.ledger = ledger
        self.connection = connection
    }

    /// As the ledger records, inside a savepoint: a row id an imported check-in holds (a
    /// unique violation) undoes the savepoint alone, and the next try takes the identity's next.
    func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        var tries = 1
        while true {
            try connection.execute("SAVEPOINT record")
            do throws(LedgerError) {
                let admission: Admission = if let capacity = rules.capacity {
                    try ledger.admit(checkIn, rules: rules, capacity: capacity, connection)
                } else {
                    .admitted(try ledger.recordOnce(checkIn, duplicateSeconds: rules.duplicateSeconds, connection))
                }
                try connection.execute("RELEASE SAVEPOINT record")
                return admission
            } catch where connection.lastFailureState == PostgresError.uniqueViolation && tries < PostgresLedger.recordTries {
                try connection.execute("ROLLBACK TO SAVEPOINT record")
                tries += 1
            }
        }
    }

    func occupancy(venue: VenueID, openSince: WallTime?) throws(LedgerError) -> Int {
        Int(try connection.query(PostgresLedger.countOpenAtVenue, [.text(venue.rawValue), .int64(openSince?.milliseconds ?? Int64.min)])
            .int64(0, 0) ?? 0)
    }

    func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport {
        try ledger.checkOut(request, connection)
    }

    func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        try ledger.erase(subject, connection)
    }

    func purgeDue(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        PurgeReport(checkIns: try PostgresLedger.delete("checkins", before: request.checkInsBefore, dryRun: true, connection),
                    refusals: try PostgresLedger.delete("refusals", before: request.refusalsBefore, dryRun: true, connection))
    }

    func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try PostgresLedger.delete("audit", before: cutoff, dryRun: false, connection)
    }

    func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try PostgresLedger.addAccount(account, connection)
    }

    func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try PostgresLedger.changeAccount(named: name, change, connection)
    }

    func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try PostgresLedger.removeAccount(named: name, connection)
    }

    @discardableResult
    func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try PostgresLedger.appendAudit(entry, connection)
    }
}

extension PostgresLedger {
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try body(PostgresTransaction(self, connection)) }
        }
    }
}
