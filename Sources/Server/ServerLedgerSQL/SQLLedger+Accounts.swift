import ServerDomain
import SharedDomain

/// The console's accounts and sessions, beside the visitor log.
extension SQLLedger {
    /// Inserts `account` unless its name is taken.
    public func addAccount(_ account: ConsoleAccount, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(LedgerStatements.insertAccount, [.text(account.name), .text(account.role.rawValue), .text(account.passwordHash),
                                                           .integer(account.disabled ? 1 : 0), .integer(account.created.milliseconds),
                                                           .text(account.signIn.rawValue)],
                          { _ in true }) != nil
    }

    /// The account named `name`, if any.
    public func account(named name: String, on session: any SQLSession) throws(LedgerError) -> ConsoleAccount? {
        try session.first(LedgerStatements.selectAccount, [.text(name)]) { row throws(LedgerError) in try LedgerRows.account(row, session.target) }
    }

    /// Every account, by name.
    public func accounts(on session: any SQLSession) throws(LedgerError) -> [ConsoleAccount] {
        try session.all(LedgerStatements.selectAccounts, []) { row throws(LedgerError) in try LedgerRows.account(row, session.target) }
    }

    /// Applies `change` to account `name`, ending its sessions when the change does.
    public func changeAccount(named name: String, _ change: AccountChange, on session: any SQLSession) throws(LedgerError) -> Bool {
        let changed = try session.first(LedgerStatements.updateAccount, [.text(name), .text(change.role?.rawValue), .text(change.passwordHash),
                                                                         .integer(change.disabled.map { $0 ? 1 : 0 })], { _ in true }) != nil
        if changed && change.endsSessions { try session.run(LedgerStatements.deleteAccountSessions, [.text(name)]) }
        return changed
    }

    /// Removes account `name`, its sessions and its recovery codes.
    public func removeAccount(named name: String, on session: any SQLSession) throws(LedgerError) -> Bool {
        let removed = try session.first(LedgerStatements.deleteAccount, [.text(name)], { _ in true }) != nil
        if removed {
            try session.run(LedgerStatements.deleteAccountSessions, [.text(name)])
            try session.run(LedgerStatements.deleteRecoveryCodes, [.text(name)])
        }
        return removed
    }

    /// Stores a new session.
    public func addSession(_ console: ConsoleSession, on session: any SQLSession) throws(LedgerError) {
        try session.run(LedgerStatements.insertSession, [.text(console.idHash), .text(console.account), .integer(console.created.milliseconds),
                                                         .integer(console.lastSeen.milliseconds), .text(console.formToken)])
    }

    /// The session whose id hashes to `idHash`, if it exists.
    public func session(idHash: String, on session: any SQLSession) throws(LedgerError) -> ConsoleSession? {
        try session.first(LedgerStatements.selectSession, [.text(idHash)]) { row throws(LedgerError) in try LedgerRows.session(row, session.target) }
    }

    /// Marks the session used at `time`.
    public func touchSession(idHash: String, at time: WallTime, on session: any SQLSession) throws(LedgerError) {
        try session.run(LedgerStatements.touchSession, [.text(idHash), .integer(time.milliseconds)])
    }

    /// Ends the session.
    public func removeSession(idHash: String, on session: any SQLSession) throws(LedgerError) {
        try session.run(LedgerStatements.deleteSession, [.text(idHash)])
    }

    /// Ends every session idle since before `idleBefore` or begun before `createdBefore`; how many.
    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime, on session: any SQLSession) throws(LedgerError) -> Int {
        try session.run(LedgerStatements.purgeSessions, [.integer(idleBefore.milliseconds), .integer(createdBefore.milliseconds)])
    }
}
