import ServerDomain
import SharedDomain

/// `InMemoryLedger`'s transaction: copies of the ledger's and the accounts' states that the
/// ledger takes back only when the body returned (`InMemoryLedger.transaction`), so a body that
/// throws leaves both as they were, as a database's rollback does.
final class InMemoryTransaction: LedgerTransaction {
    var state: InMemoryLedger.State
    var accounts: InMemoryAccounts.State
    let ids: CheckInIDCipher

    init(state: InMemoryLedger.State, accounts: InMemoryAccounts.State, ids: CheckInIDCipher) {
        self.state = state
        self.accounts = accounts
        self.ids = ids
    }

    func record(_ checkIn: NewCheckIn, rules: AdmissionRules) throws(LedgerError) -> Admission {
        try InMemoryLedger.record(checkIn, rules: rules, ids: ids, &state)
    }

    func occupancy(venue: VenueID, openSince: WallTime?) throws(LedgerError) -> Int {
        state.checkIns.filter { InMemoryLedger.isOpen($0, at: venue, since: openSince) }.count
    }

    func checkOut(_ request: CheckOutRequest) throws(LedgerError) -> CheckOutReport {
        InMemoryLedger.checkOut(request, &state)
    }

    func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        InMemoryLedger.erase(subject, &state)
    }

    func purgeDue(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        InMemoryLedger.purgeDue(request, state)
    }

    func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        InMemoryLedger.purgeAudit(before: cutoff, &state)
    }

    func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        InMemoryAccounts.addAccount(account, &accounts)
    }

    func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        InMemoryAccounts.changeAccount(named: name, change, &accounts)
    }

    func removeAccount(named name: String) throws(LedgerError) -> Bool {
        InMemoryAccounts.removeAccount(named: name, &accounts)
    }

    func steerKiosk(_ key: KioskKey, _ change: KioskSteerChange, by: OperatorName, at time: WallTime) throws(LedgerError) -> KioskSteer? {
        state.fleet.steer(key, change, by: by, at: time)
    }

    func forgetKiosk(_ key: KioskKey) throws(LedgerError) -> Bool {
        state.fleet.forget(key)
    }

    func addToken(_ token: APIToken) throws(LedgerError) -> Bool {
        InMemoryLedger.addToken(token, &state)
    }

    func removeToken(named name: String) throws(LedgerError) -> Bool {
        state.tokens.removeValue(forKey: name) != nil
    }

    func tokens() throws(LedgerError) -> [APIToken] {
        state.tokens.values.sorted { $0.name < $1.name }
    }

    func addSession(_ session: ConsoleSession) throws(LedgerError) {
        accounts.sessions[session.idHash] = session
    }

    func removeSession(idHash: String) throws(LedgerError) {
        accounts.sessions[idHash] = nil
    }

    func enableSecondFactor(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?) throws(LedgerError) -> Bool {
        InMemoryAccounts.enableSecondFactor(account: account, sealedSecret: sealedSecret, recoveryCodes: recoveryCodes, lastStep: lastStep, &accounts)
    }

    func disableSecondFactor(account: String) throws(LedgerError) -> Bool {
        InMemoryAccounts.disableSecondFactor(account: account, &accounts)
    }

    func acceptSecondFactorStep(account: String, step: Int64, resealed: String?) throws(LedgerError) -> Bool {
        InMemoryAccounts.acceptSecondFactorStep(account: account, step: step, resealed: resealed, &accounts)
    }

    func recoveryCodes(account: String) throws(LedgerError) -> [String] {
        (accounts.recoveryCodes[account] ?? []).sorted()
    }

    func useRecoveryCode(account: String, hash: String) throws(LedgerError) -> Bool {
        InMemoryAccounts.useRecoveryCode(account: account, hash: hash, &accounts)
    }

    @discardableResult
    func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        InMemoryLedger.appendAudit(entry, &state)
    }
}
