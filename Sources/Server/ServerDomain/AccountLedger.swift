import SharedDomain

/// Port: the console's accounts and sessions, kept in the ledger's database beside the visitor
/// log (SQLite, PostgreSQL, or memory for tests), all of them passing `AccountContract`. Every
/// change returns once committed; none is on a visitor's path. An operator's change of an
/// account is an action with its audit entry (`AccountChanges`, through a transaction); these
/// are the console's own upkeep (sessions, a password's new hash) and the reads.
public protocol AccountLedger: Sendable {
    /// Adds `account`; false (and nothing changed) when an account of that name exists.
    func addAccount(_ account: ConsoleAccount) async throws(LedgerError) -> Bool

    /// The account named `name`, if any.
    func account(named name: String) async throws(LedgerError) -> ConsoleAccount?

    /// Every account, by name.
    func accounts() async throws(LedgerError) -> [ConsoleAccount]

    /// Applies `change` to the account named `name`; false when there is none. A new password,
    /// a new role or disabling also ends the account's sessions (in the same transaction): what
    /// was signed in under the old terms must sign in again.
    func changeAccount(named name: String, _ change: AccountChange) async throws(LedgerError) -> Bool

    /// Removes the account named `name` and its sessions; false when there is none.
    func removeAccount(named name: String) async throws(LedgerError) -> Bool

    /// Stores a new session.
    func addSession(_ session: ConsoleSession) async throws(LedgerError)

    /// The session whose id hashes to `idHash`, if it exists.
    func session(idHash: String) async throws(LedgerError) -> ConsoleSession?

    /// Marks the session as used at `time`.
    func touchSession(idHash: String, at time: WallTime) async throws(LedgerError)

    /// Ends the session (sign-out, or found expired).
    func removeSession(idHash: String) async throws(LedgerError)

    /// Ends every session last used before `idleBefore` or begun before `createdBefore`;
    /// returns how many.
    func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) async throws(LedgerError) -> Int
}
