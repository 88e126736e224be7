import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// `SQLiteLedger`'s transaction: the writer's connection inside a transaction of its own
/// (`SQLiteWriter.performAlone`), each method the statements the ledger's method of the same
/// name runs. Lives on the writer's thread for the length of one body.
final class SQLiteTransaction: LedgerTransaction {
    private let connection: SQLiteConnection
    private let ids: CheckInIDCipher
    /// Whether check-ins were erased: their pages leave the write-ahead log after the commit.
    private(set) var erased = false

    init(_ connection: SQLiteConnection, ids: CheckInIDCipher) {
        self.connection = connection
        self.ids = ids
    }

    func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        try SQLiteLedger.record(checkIn, rules: rules, connection, ids)
    }

    func occupancy(venue: VenueID, openSince: WallTime?) throws(LedgerError) -> Int {
        let count = try connection.statement(SQLiteLedger.countOpenAtVenue)
        defer { count.reset() }
        try count.bind(1, venue.rawValue)
        try count.bind(2, openSince?.milliseconds ?? Int64.min)
        return try count.step() ? Int(count.int64(0) ?? 0) : 0
    }

    func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport {
        try SQLiteLedger.checkOut(request, connection, ids)
    }

    func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        let count = try SQLiteLedger.erase(subject, ids: ids, connection)
        if count > 0 { erased = true }
        return count
    }

    func purgeDue(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        PurgeReport(checkIns: try SQLiteLedger.delete("checkins", before: request.checkInsBefore, dryRun: true, connection),
                    refusals: try SQLiteLedger.delete("refusals", before: request.refusalsBefore, dryRun: true, connection))
    }

    func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try SQLiteLedger.delete("audit", before: cutoff, dryRun: false, connection)
    }

    func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try SQLiteLedger.addAccount(account, connection)
    }

    func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try SQLiteLedger.changeAccount(named: name, change, connection)
    }

    func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try SQLiteLedger.removeAccount(named: name, connection)
    }

    @discardableResult
    func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try SQLiteLedger.appendAudit(entry, connection)
    }
}

extension SQLiteLedger {
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let (value, erased) = try writer.performAlone { [ids] connection throws(LedgerError) in
            let transaction = SQLiteTransaction(connection, ids: ids)
            return (try body(transaction), transaction.erased)
        }
        // Erased rows must not linger in the write-ahead log either (as `erase`).
        if erased { compact() }
        return value
    }
}
