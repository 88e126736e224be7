import SharedDomain

/// A signed-in console session as the ledger keeps it: never the id the browser holds, only its
/// hash (a stolen table cannot be replayed as cookies), the account, when it began and was last
/// used (the idle timeout and the absolute lifetime are counted from these), and the secret its
/// forms carry (the CSRF token). In the database, so a session begun on one server works on
/// every server of one PostgreSQL, and a sign-out on one ends it on all.
public struct ConsoleSession: Hashable, Sendable {
    /// The hash of the session id (hex), the table's key.
    public let idHash: String
    /// The account's name.
    public let account: String
    /// When the session began (sign-in).
    public let created: WallTime
    /// When it was last used (updated at most once a minute: `ConsoleSessions.touchInterval`).
    public var lastSeen: WallTime
    /// The token every form of the session carries (hex).
    public let formToken: String

    /// A session with these fields.
    public init(idHash: String, account: String, created: WallTime, lastSeen: WallTime, formToken: String) {
        self.idHash = idHash
        self.account = account
        self.created = created
        self.lastSeen = lastSeen
        self.formToken = formToken
    }
}
