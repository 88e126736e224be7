import SharedDomain

/// Use case: the second step of a password sign-in, done. The code's step is taken by
/// compare-and-set (or the recovery code's row deleted), the new session stored and the
/// `sign-in` entry written, in one transaction: a code two servers accept at once signs in on
/// one of them only, and a session exists only with its entry. A code that loses changes nothing.
public struct SecondFactorSignIn: Sendable {
    /// The account signing in, from where.
    public let trail: AuditTrail

    /// Sign-ins by `trail`'s operator (the account).
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Signs in with a TOTP code of `step`: true once `session` and its entry are committed;
    /// false when the step was not newer than the account's last (a replay, or another sign-in
    /// took it first): nothing stored. `resealed` replaces the stored secret (a rotation).
    public func withCode(step: Int64, resealed: String?, session: ConsoleSession, role: ConsoleRole) async throws(LedgerError) -> Bool {
        let account = session.account
        return try await trail.change(at: session.created, { transaction throws(LedgerError) -> Bool in
            guard try transaction.acceptSecondFactorStep(account: account, step: step, resealed: resealed) else { return false }
            try transaction.addSession(session)
            return true
        }, note: { $0 ? AuditNote(.signIn, detail: "role \(role.rawValue), code") : nil }).value
    }

    /// Signs in with a recovery code: `match` names the stored hash (of the account's unused
    /// ones) the typed code is, if any; that row is deleted and `session` stored with its entry.
    /// Returns how many codes are left, or nil when none matched (or a racing sign-in used it
    /// first): nothing stored.
    public func withRecoveryCode(match: @escaping @Sendable ([String]) -> String?, session: ConsoleSession,
                                 role: ConsoleRole) async throws(LedgerError) -> Int? {
        let account = session.account
        return try await trail.change(at: session.created, { transaction throws(LedgerError) -> Int? in
            let stored = try transaction.recoveryCodes(account: account)
            guard let hash = match(stored), try transaction.useRecoveryCode(account: account, hash: hash) else { return nil }
            try transaction.addSession(session)
            return stored.count - 1
        }, note: { left in left.map { AuditNote(.signIn, detail: "role \(role.rawValue), recovery code, \($0) left") } }).value
    }
}
