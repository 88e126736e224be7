import SharedDomain

/// Use case: the API's tokens added and removed (`qrcheckin-server token`, the console's tokens
/// page), each change and its entry (`token-add` with the scope and venues, never the secret;
/// `token-remove`) in one transaction. A token added under a name taken, or the removal of one
/// that does not exist, changes nothing and writes no entry.
public struct TokenChanges: Sendable {
    /// Whose actions, on which ledger.
    public let trail: AuditTrail

    /// Changes by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Adds `token`; false when its name is taken.
    public func add(_ token: APIToken) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.addToken(token) },
                         note: { $0 ? AuditNote(.tokenAdd, subject: "token \(token.name)", detail: Self.describe(token)) : nil }).value
    }

    /// Removes the token `name`; false when there is none.
    public func remove(named name: String) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.removeToken(named: name) },
                         note: { $0 ? AuditNote(.tokenRemove, subject: "token \(name)") : nil }).value
    }

    /// What the entry says of a new token: `scope read, venues HALL-1 HALL-2` (`every venue`).
    public static func describe(_ token: APIToken) -> String {
        "scope \(token.scope.rawValue), " + (token.venues.isEmpty ? "every venue" : "venues " + token.venues.map(\.rawValue).joined(separator: " "))
    }
}
