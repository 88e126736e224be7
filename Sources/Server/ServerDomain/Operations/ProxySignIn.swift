import SharedDomain

/// Use case: the venue's proxy signs an operator in (`admin-auth = proxy`). The account the
/// proxy names is added on its first sign-in (proxy-managed: no password) and given the role
/// its groups map to at every sign-in; the session is stored; one `proxy-sign-in` entry (source
/// `proxy`) says the role and whether the account was added or its role changed; all in one
/// transaction. Whether the proxy may sign this name in at all (a password account of that
/// name, a disabled one, no role for its groups) is decided before, by the caller.
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
    /// `session`, writes the entry; returns what changed once committed.
    @discardableResult
    public func signIn(_ existing: ConsoleAccount?, role: ConsoleRole, session: ConsoleSession) throws(LedgerError) -> Change {
        let name = session.account
        return try trail.change(at: session.created, { transaction throws(LedgerError) -> Change in
            var change = Change.unchanged
            if existing == nil, try transaction.addAccount(.proxyManaged(name, role: role, at: session.created)) {
                change = .added
            } else if let previous = existing?.role, previous != role {
                _ = try transaction.changeAccount(named: name, AccountChange(role: role))
                change = .roleChanged(from: previous)
            } else if existing == nil {
                // Added meanwhile by a sign-in that raced this one: the role as the groups say.
                _ = try transaction.changeAccount(named: name, AccountChange(role: role))
            }
            try transaction.addSession(session)
            return change
        }, note: { change in
            let detail = switch change {
            case .added: "role \(role.rawValue), account added"
            case .roleChanged(let previous): "role \(role.rawValue), was \(previous.rawValue)"
            case .unchanged: "role \(role.rawValue)"
            }
            return AuditNote(.proxySignIn, subject: "account \(name)", detail: detail)
        }).value
    }
}
