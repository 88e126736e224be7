import SharedDomain

/// Use case: the venue's proxy signs an operator in (`admin-auth = proxy`). The account the
/// proxy names is added on its first sign-in (proxy-managed: no password) and given the role
/// its groups map to at every sign-in; the session is stored; all in one transaction with its
/// entries (source `proxy ADDRESS`): `proxy-account-add` when the account was added,
/// `proxy-role-change` when its role changed, and always `proxy-sign-in`. Whether the proxy may
/// sign this name in at all (a password account of that name, a disabled one, no role for its
/// groups) is decided before, by the caller.
public struct ProxySignIn: Sendable {
    /// The account the proxy named, from where (`proxy ADDRESS`).
    public let trail: AuditTrail

    /// Sign-ins of `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// What a sign-in did to the account.
    public enum Change: Hashable, Sendable {
        /// The account was added with the role.
        case added
        /// Its role changed from this one.
        case roleChanged(from: ConsoleRole)
        /// It was as the groups say.
        case unchanged
    }

    /// Signs `existing` (nil: no account of the session's name yet) in with `role`: adds the
    /// account or sets its role (ending its other sessions, as any change of role does), stores
    /// `session`, writes the entries; returns what changed once committed.
    @discardableResult
    public func signIn(_ existing: ConsoleAccount?, role: ConsoleRole, session: ConsoleSession) async throws(LedgerError) -> Change {
        let name = session.account
        let trail = self.trail
        let time = session.created
        return try await trail.change(at: time, { transaction throws(LedgerError) -> Change in
            var change = Change.unchanged
            if existing == nil, try transaction.addAccount(.proxyManaged(name, role: role, at: time)) {
                change = .added
                _ = try transaction.appendAudit(trail.entry(AuditNote(.proxyAccountAdd, subject: "account \(name)", detail: "role \(role.rawValue)"),
                                                            at: time))
            } else if let previous = existing?.role, previous != role {
                _ = try transaction.changeAccount(named: name, AccountChange(role: role))
                change = .roleChanged(from: previous)
                _ = try transaction.appendAudit(trail.entry(
                    AuditNote(.proxyRoleChange, subject: "account \(name)", detail: "role \(role.rawValue), was \(previous.rawValue)"), at: time))
            } else if existing == nil {
                // Added meanwhile by a sign-in that raced this one: the role as the groups say.
                _ = try transaction.changeAccount(named: name, AccountChange(role: role))
            }
            try transaction.addSession(session)
            return change
        }, note: { _ in AuditNote(.proxySignIn, subject: "account \(name)", detail: "role \(role.rawValue)") }).value
    }

    /// The proxy's sign-in headers came from `address`, which is no trusted proxy: ignored;
    /// `count` such requests since the last entry of that address (`proxy-spoof`).
    @discardableResult
    public func spoofed(count: Int, at time: WallTime) async throws(LedgerError) -> AuditEntry {
        try await trail.record(AuditNote(.proxySpoof, detail: "the proxy's sign-in headers from an address that is no trusted proxy: ignored",
                                         rows: count), at: time)
    }

    /// A sign-in the proxy asked for and the console refused, `reason` saying why.
    @discardableResult
    public func refused(reason: String, count: Int, at time: WallTime) async throws(LedgerError) -> AuditEntry {
        try await trail.record(AuditNote(.signInFailed, detail: reason, rows: count), at: time)
    }

    /// Ends the session whose id hashes to `idHash`: the proxy names nobody or another user.
    public func ended(idHash: String, reason: String, at time: WallTime) async throws(LedgerError) {
        _ = try await trail.change(at: time, { transaction throws(LedgerError) in try transaction.removeSession(idHash: idHash) },
                                   note: { AuditNote(.signOut, detail: reason) })
    }
}
