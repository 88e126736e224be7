import SharedDomain

/// Use case: a console account signs in or out (`/admin/login`, `/admin/logout`), each with its
/// audit entry in the transaction that changes its session: a sign-in's new session and its
/// `sign-in` entry (a sign-in the log cannot take opens no session), a sign-out's end of the
/// session and its `sign-out` entry. A refused sign-in changes nothing; its `sign-in-failed`
/// entry is the action.
public struct ConsoleSignIn: Sendable {
    /// Who signs in or out (the account, or `-` for a name that is none), from where.
    public let trail: AuditTrail

    /// Sign-ins and sign-outs by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Stores `session` of an account of `role`, with the `sign-in` entry; returns the entry.
    @discardableResult
    public func signIn(_ session: ConsoleSession, role: ConsoleRole) async throws(LedgerError) -> AuditEntry? {
        try await trail.change(at: session.created, { transaction throws(LedgerError) in try transaction.addSession(session) },
                               note: { AuditNote(.signIn, detail: "role \(role.rawValue)") }).entry
    }

    /// A refused sign-in, `reason` saying why (never the password, nor a name that is no
    /// account's: what was typed in the name field may be a password).
    @discardableResult
    public func failed(reason: String, at time: WallTime) async throws(LedgerError) -> AuditEntry {
        try await trail.record(AuditNote(.signInFailed, detail: reason), at: time)
    }

    /// Ends the session whose id hashes to `idHash` (if the cookie named one), with the
    /// `sign-out` entry.
    @discardableResult
    public func signOut(idHash: String?, at time: WallTime) async throws(LedgerError) -> AuditEntry? {
        try await trail.change(at: time, { transaction throws(LedgerError) in if let idHash { try transaction.removeSession(idHash: idHash) } },
                               note: { AuditNote(.signOut) }).entry
    }
}
