import SharedDomain

/// Use case: the console's accounts changed (`qrcheckin-server user`, the console's accounts
/// page), each change and its entry (`account-added`, `-changed`, `-removed`, with what changed,
/// never a password) in one transaction. A change of an account that does not exist, or an
/// account added under a name taken, changes nothing and writes no entry.
public struct AccountChanges: Sendable {
    /// Whose actions, on which ledger.
    public let trail: AuditTrail

    /// Changes by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Adds `account`; false when its name is taken.
    public func add(_ account: ConsoleAccount) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.addAccount(account) },
                         note: { $0 ? AuditNote(.accountAdded, subject: "account \(account.name)", detail: "role \(account.role.rawValue)") : nil }).value
    }

    /// Applies `change` to the account `name` (ending its sessions when the change does); false when there is none.
    public func change(named name: String, _ change: AccountChange) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.changeAccount(named: name, change) },
                         note: { $0 ? AuditNote(.accountChanged, subject: "account \(name)", detail: Self.describe(change)) : nil }).value
    }

    /// Removes the account `name` and its sessions; false when there is none.
    public func remove(named name: String) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.removeAccount(named: name) },
                         note: { $0 ? AuditNote(.accountRemoved, subject: "account \(name)") : nil }).value
    }

    /// What a change changed, as the entry says it: `password, role admin`, `disabled`.
    static func describe(_ change: AccountChange) -> String {
        var parts: [String] = []
        if change.passwordHash != nil { parts.append("password") }
        if let role = change.role { parts.append("role \(role.rawValue)") }
        if let disabled = change.disabled { parts.append(disabled ? "disabled" : "enabled") }
        return parts.joined(separator: ", ")
    }
}
