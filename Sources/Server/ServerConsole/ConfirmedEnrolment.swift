import ServerDomain
import ServerSecondFactor
import SharedDomain

/// An enrolment proved: the sealed secret an enrolment page showed, a code of it typed back (so
/// the app has the secret), and the ten recovery codes made for it. Stored by `store`.
struct ConfirmedEnrolment {
    /// The account's new sealed secret (hex).
    let sealed: String
    /// The step of the code that confirmed it: taken, so that code cannot sign in again.
    let step: Int64
    /// The recovery codes, to show once; their hashes are stored.
    let codes: [RecoveryCode]
    let hashes: [String]

    /// What a typed confirmation is.
    enum Outcome {
        case confirmed(ConfirmedEnrolment)
        /// Six digits that are no code of the secret now.
        case wrong
        /// Not six digits.
        case malformed
        /// The sealed secret does not open for this account (altered, or another's).
        case unreadable
    }

    /// `typed` checked against the secret `sealed` holds for `account` at `time`.
    static func confirm(_ typed: String, sealed: String, account: String, at time: WallTime, factor: ConsoleSecondFactor) -> Outcome {
        guard let box = try? SealedTOTPSecret(hex: sealed), let opened = try? factor.sealer.open(box, account: account) else { return .unreadable }
        switch try? TOTP(secret: opened.secret).verify(typed, at: time, lastAccepted: nil) {
        case .accepted(let step), .replayed(let step):
            guard let codes = try? RecoveryCode.generateSet(random: factor.random) else { return .unreadable }
            return .confirmed(ConfirmedEnrolment(sealed: sealed, step: step.number, codes: codes,
                                                 hashes: codes.map { factor.hasher.hash($0, account: account).hex }))
        case .malformed: return .malformed
        case .wrong, nil: return .wrong
        }
    }

    /// Turns `account`'s second factor on with its entry (`totp-enable`); false when the
    /// account is gone.
    func store(for account: String, _ changes: SecondFactorChanges) async throws(LedgerError) -> Bool {
        try await changes.enable(account: account, sealedSecret: sealed, recoveryCodes: hashes, lastStep: step)
    }
}
