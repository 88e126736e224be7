import ServerDomain
import SharedDomain

/// An SQL engine's transaction as operator actions use it (`LedgerTransaction`): a session
/// inside the transaction its engine opened (SQLite: the writer's, alone; PostgreSQL: one
/// pooled connection's BEGIN … COMMIT), each method what the ledger's method of the same name
/// runs. Lives for the length of one body.
public final class SQLTransaction: LedgerTransaction {
    let ledger: SQLLedger
    let session: any SQLSession
    /// Whether check-ins were erased: SQLite then hands their pages back after the commit.
    public private(set) var erased = false

    /// A transaction of `ledger` on `session`.
    public init(_ ledger: SQLLedger, on session: any SQLSession) {
        self.ledger = ledger
        self.session = session
    }

    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        try ledger.record(checkIn, rules: rules, on: session)
    }

    public func occupancy(venue: VenueID, openSince: WallTime?) throws(LedgerError) -> Int {
        try session.count(LedgerStatements.countOpenAtVenue, [.text(venue.rawValue), .integer(openSince?.milliseconds ?? Int64.min)])
    }

    public func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport {
        try ledger.checkOut(request, on: session)
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        let count = try ledger.erase(subject, on: session)
        if count > 0 { erased = true }
        return count
    }

    public func purgeDue(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        try ledger.purgeDue(request, on: session)
    }

    public func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try ledger.delete(.audit, before: cutoff, dryRun: false, on: session)
    }

    public func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try ledger.addAccount(account, on: session)
    }

    public func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try ledger.changeAccount(named: name, change, on: session)
    }

    public func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try ledger.removeAccount(named: name, on: session)
    }

    public func steerKiosk(_ key: KioskKey, _ change: KioskSteerChange, by: OperatorName, at time: WallTime) throws(LedgerError) -> KioskSteer? {
        try ledger.steerKiosk(key, change, by: by, at: time, on: session)
    }

    public func forgetKiosk(_ key: KioskKey) throws(LedgerError) -> Bool {
        try ledger.forgetKiosk(key, on: session)
    }

    public func addToken(_ token: APIToken) throws(LedgerError) -> Bool {
        try ledger.addToken(token, on: session)
    }

    public func removeToken(named name: String) throws(LedgerError) -> Bool {
        try ledger.removeToken(named: name, on: session)
    }

    public func tokens() throws(LedgerError) -> [APIToken] {
        try ledger.tokens(on: session)
    }

    public func addSession(_ console: ConsoleSession) throws(LedgerError) {
        try ledger.addSession(console, on: session)
    }

    public func removeSession(idHash: String) throws(LedgerError) {
        try ledger.removeSession(idHash: idHash, on: session)
    }

    public func enableSecondFactor(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?) throws(LedgerError) -> Bool {
        try ledger.enableSecondFactor(account: account, sealedSecret: sealedSecret, recoveryCodes: recoveryCodes, lastStep: lastStep, on: session)
    }

    public func disableSecondFactor(account: String) throws(LedgerError) -> Bool {
        try ledger.disableSecondFactor(account: account, on: session)
    }

    public func acceptSecondFactorStep(account: String, step: Int64, resealed: String?) throws(LedgerError) -> Bool {
        try ledger.acceptSecondFactorStep(account: account, step: step, resealed: resealed, on: session)
    }

    public func recoveryCodes(account: String) throws(LedgerError) -> [String] {
        try ledger.recoveryCodes(account: account, on: session)
    }

    public func useRecoveryCode(account: String, hash: String) throws(LedgerError) -> Bool {
        try ledger.useRecoveryCode(account: account, hash: hash, on: session)
    }

    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try ledger.appendAudit(entry, on: session)
    }
}
