import SharedDomain

/// Use case: an account's second factor turned on or off (`qrcheckin-server user totp
/// enable|disable`, the console's own account page and the accounts page), each change and its
/// entry (`totp-enable`, `totp-disable`; never a secret or a code) in one transaction. Turning on
/// replaces any earlier secret and recovery codes; an account that has no second factor to turn
/// off, or that signs in through the proxy, changes nothing and writes no entry.
public struct SecondFactorChanges: Sendable {
    /// Whose actions, on which ledger.
    public let trail: AuditTrail

    /// Changes by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Gives the password account `account` the sealed secret `sealedSecret` and the recovery
    /// codes of `recoveryCodes` (their hashes), the step `lastStep` taken (an enrolment confirmed
    /// with a code of it: that code cannot sign in again); false when there is no such account.
    public func enable(account: String, sealedSecret: String, recoveryCodes: [String], lastStep: Int64?) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in
            try transaction.enableSecondFactor(account: account, sealedSecret: sealedSecret, recoveryCodes: recoveryCodes, lastStep: lastStep)
        }, note: { $0 ? AuditNote(.totpEnable, subject: "account \(account)", detail: "\(recoveryCodes.count) recovery codes") : nil }).value
    }

    /// Takes `account`'s second factor away; false when it had none.
    public func disable(account: String) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.disableSecondFactor(account: account) },
                         note: { $0 ? AuditNote(.totpDisable, subject: "account \(account)") : nil }).value
    }
}
