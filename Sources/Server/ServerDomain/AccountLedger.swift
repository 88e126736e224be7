import SharedDomain

/// Port: the console's accounts and sessions, kept in the ledger's database beside the visitor
/// log (SQLite, PostgreSQL, or memory for tests), all of them passing `AccountContract`. Every
/// method blocks until its change is committed; none is on a visitor's path.
public protocol AccountLedger: Sendable {
    /// Adds `account`; false (and nothing changed) when an account of that name exists.
    func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool

    /// The account named `name`, if any.
    func account(named name: String) throws(LedgerError) -> ConsoleAccount?

    /// Every account, by name.
    func accounts() throws(LedgerError) -> [ConsoleAccount]

    /// Applies `change` to the account named `name`; false when there is none. A new password,
    /// a new role or disabling also ends the account's sessions (in the same transaction): what
    /// was signed in under the old terms must sign in again.
    func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool

    /// Removes the account named `name` and its sessions; false when there is none.
    func removeAccount(named name: String) throws(LedgerError) -> Bool

    /// Stores a new session.
    func addSession(_ session: ConsoleSession) throws(LedgerError)

    /// The session whose id hashes to `idHash`, if it exists.
    func session(idHash: String) throws(LedgerError) -> ConsoleSession?

    /// Marks the session as used at `time`.
    func touchSession(idHash: String, at time: WallTime) throws(LedgerError)

    /// Ends the session (sign-out, or found expired).
    func removeSession(idHash: String) throws(LedgerError)

    /// Ends every session last used before `idleBefore` or begun before `createdBefore`;
    /// returns how many.
    func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) throws(LedgerError) -> Int
}
