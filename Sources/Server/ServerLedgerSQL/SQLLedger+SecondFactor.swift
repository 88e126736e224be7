import ServerDomain
import SharedDomain

/// The console accounts' second factors (`LedgerTransaction`'s methods of the same names): each
/// step one statement, so the rules that matter hold in the database on every server of one
/// ledger: a code's step is taken by compare-and-set, a recovery code by the delete of its row.
extension SQLLedger {
    /// Gives the password account `account` its second factor and new recovery codes (the old
    /// ones deleted); false: no such password account.
    public func enableSecondFactor(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?,
                                   on session: any SQLSession) throws(LedgerError) -> Bool {
        let enabled = try session.first(LedgerStatements.enableSecondFactor, [.text(account), .text(sealedSecret), .integer(lastStep)],
                                        { _ in true }) != nil
        guard enabled else { return false }
        try session.run(LedgerStatements.deleteRecoveryCodes, [.text(account)])
        for hash in recoveryCodes { try session.run(LedgerStatements.insertRecoveryCode, [.text(account), .text(hash)]) }
        return true
    }

    /// Takes `account`'s second factor and recovery codes away; false: it had none.
    public func disableSecondFactor(account: String, on session: any SQLSession) throws(LedgerError) -> Bool {
        let disabled = try session.first(LedgerStatements.disableSecondFactor, [.text(account)], { _ in true }) != nil
        if disabled { try session.run(LedgerStatements.deleteRecoveryCodes, [.text(account)]) }
        return disabled
    }

    /// Takes `step` as `account`'s last accepted step if it is newer; false: a replay or a race lost.
    public func acceptSecondFactorStep(account: String, step: Int64, resealed: String?, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(LedgerStatements.acceptSecondFactorStep, [.text(account), .integer(step), .text(resealed)], { _ in true }) != nil
    }

    /// The hashes of `account`'s unused recovery codes.
    public func recoveryCodes(account: String, on session: any SQLSession) throws(LedgerError) -> [String] {
        try session.all(LedgerStatements.selectRecoveryCodes, [.text(account)]) { row throws(LedgerError) in
            guard let hash = row.text(0) else { throw LedgerError(.corrupt, "\(session.target): a recovery code no ledger writes") }
            return hash
        }
    }

    /// Deletes the recovery code `hash` of `account`; false: it was not there.
    public func useRecoveryCode(account: String, hash: String, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(LedgerStatements.deleteRecoveryCode, [.text(account), .text(hash)], { _ in true }) != nil
    }
}
