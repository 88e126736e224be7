import ServerDomain
import ServerSecondFactor
import SharedDomain

/// A password accepted whose second step is not done yet: not a session (it opens no page), a
/// short-lived token in its own cookie (`qrcheckin_console_pending`) that lets its browser do
/// the one thing left, type a code (or, for a role that must have one, enrol). Signed with the
/// server's pending-sign-in key (`SecondFactorKeys`), so every server of the ledger reads it and
/// nothing is stored; and bound to the account as it was when the password was accepted (its
/// password hash, role, second factor and last accepted step enter the signature without being
/// in the token), so a new password, a new role, a code accepted meanwhile or a second factor
/// turned off or on makes it worthless. It lives `lifetimeSeconds`.
///
/// Token: `1|STEP|ACCOUNT|ISSUED_MS|SEALED|MAC` (MAC: HMAC-SHA256 as hex over everything before
/// it, a newline and the account's binding), all of it cookie-safe text.
struct PendingSignIn: Sendable, Equatable {
    /// What is left to do.
    enum Step: String, Sendable {
        /// Type a code of the account's authenticator (or a recovery code).
        case code
        /// Enrol one (`require-totp`): the new secret travels sealed in the token.
        case enrol
    }

    /// The cookie that carries it.
    static let cookie = "qrcheckin_console_pending"
    /// How long a password accepted waits for its second step.
    static let lifetimeSeconds: Int64 = 300

    let step: Step
    let account: String
    let issued: WallTime
    /// The secret an enrolment shows, sealed for the account (empty for `code`).
    let sealedSecret: String

    /// The token for `holder` (the account as it is now), signed with `keys`' current key.
    func token(for holder: ConsoleAccount, secondFactor: ConsoleSecondFactor) -> String {
        let body = self.body
        let mac = secondFactor.authenticator.authenticationCode(for: Self.message(body, holder), key: secondFactor.keys.current(.pendingSignIn))
        return body + "|" + Hex.encode(mac)
    }

    /// The token's claims, not yet believed: read the account it names, then `verify`.
    static func parse(_ token: String?) -> (pending: PendingSignIn, body: String, mac: [UInt8])? {
        guard let token, token.utf8.count <= 512 else { return nil }
        let fields = token.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, fields[0] == "1", let step = Step(rawValue: fields[1]), ConsoleAccount.isValidName(fields[2]),
              let issued = Int64(fields[3]), let mac = Hex.decode(fields[5]), mac.count == 32 else { return nil }
        let pending = PendingSignIn(step: step, account: fields[2], issued: WallTime(milliseconds: issued), sealedSecret: fields[4])
        return (pending, fields[0...4].joined(separator: "|"), mac)
    }

    /// The pending sign-in `token` carries, when one of the server's keys signed it for
    /// `holder` as it is now and it is younger than its lifetime at `now`; else nil.
    static func verify(_ token: String?, holder: ConsoleAccount?, now: WallTime, secondFactor: ConsoleSecondFactor) -> PendingSignIn? {
        guard let (pending, body, mac) = parse(token), let holder, holder.name == pending.account, !holder.disabled else { return nil }
        let age = now.milliseconds - pending.issued.milliseconds
        guard age >= 0, age < lifetimeSeconds * 1000 else { return nil }
        let message = message(body, holder)
        let signed = secondFactor.keys.all(.pendingSignIn).contains { key in
            secondFactor.authenticator.isEqualInConstantTime(secondFactor.authenticator.authenticationCode(for: message, key: key), mac)
        }
        return signed ? pending : nil
    }

    private var body: String { "1|\(step.rawValue)|\(account)|\(issued.milliseconds)|\(sealedSecret)" }

    /// What is signed: the token's body and, apart from it, what the account was.
    private static func message(_ body: String, _ holder: ConsoleAccount) -> [UInt8] {
        let factor = holder.secondFactor.map { "\($0.sealedSecret)/\($0.lastStep.map(String.init) ?? "-")" } ?? "-"
        return Array("\(body)\n\(holder.passwordHash)\n\(holder.role.rawValue)\n\(factor)".utf8)
    }
}
