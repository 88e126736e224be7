import ServerDomain
import ServerSecondFactor
import SharedCLI
import SharedDomain
import SharedQR
import SharedSystem

/// `qrcheckin-server user totp enable|disable NAME`: a password account's second factor. Enable
/// makes a new secret and ten recovery codes (`TOTPEnrolment`), stores the sealed secret and
/// the codes' hashes with the `totp-enable` entry in one transaction (`SecondFactorChanges`),
/// then prints the `otpauth://` URI, the same URI as a QR code drawn in the terminal by the
/// kiosk's own encoder and renderer (`EnrolmentQR`), and the recovery codes, once. Disable
/// takes the secret and the codes away (`totp-disable`). Nothing is printed before the change
/// is committed: a secret that is shown is a secret that signs in.
struct UserTOTP {
    enum Action: String, CaseIterable {
        case enable, disable
    }

    let action: Action
    let name: String
    /// The server's secret files (`--secret-file`, else the setting, else qrcheckin's lookup).
    let secretFiles: [String]
    let kioskStateDirectory: String?
    /// `controller`: the organisation the enrolment's issuer names.
    let organisation: String?
    let style: TerminalStyle

    func run(_ ledger: any Ledger, operatorName: String, context: CommandContext) async throws(CommandError) -> ExitCode {
        let clock = SystemClock()
        guard let account = try await ledgerCall({ () async throws(LedgerError) in try await ledger.account(named: name) }) else {
            context.error("no account \(name)")
            return .failure
        }
        let changes = SecondFactorChanges(trail: AuditTrail(ledger: ledger, actor: .shell(operatorName), clock: clock))
        switch action {
        case .disable:
            guard try await ledgerCall({ () async throws(LedgerError) in try await changes.disable(account: name) }) else {
                context.error("\(name) has no second factor; nothing changed")
                return .failure
            }
            try context.output("turned off the second factor of \(name): it signs in with its password alone\n")
            return .success
        case .enable:
            guard account.signIn == .password else {
                context.error("\(name) signs in through the proxy: its organisation's sign-in has its own second factor")
                return .failure
            }
            let sources = try ServerKeys.load(secretFiles, kioskStateDirectory: kioskStateDirectory, environment: context.environment)
            let keys = SecondFactorKeys(sources: sources.map(\.keys), authenticator: HMACAuthenticator())
            let enrolment: TOTPEnrolment
            do throws(SecondFactorError) {
                enrolment = try TOTPEnrolment(account: name, issuer: OTPAuthURI.issuer(organisation: organisation),
                                              sealer: TOTPSecretSealer(keys: keys, authenticator: HMACAuthenticator(), random: SecureRandom.bytes),
                                              hasher: RecoveryCodeHasher(keys: keys, authenticator: HMACAuthenticator()), random: SecureRandom.bytes)
            } catch {
                throw CommandError(.unavailable, "cannot make a second factor: \(error)")
            }
            let stored = try await ledgerCall { () async throws(LedgerError) in
                try await changes.enable(account: name, sealedSecret: enrolment.sealedSecret.hex,
                                         recoveryCodes: enrolment.recoveryCodeHashes.map(\.hex), lastStep: nil)
            }
            guard stored else {
                context.error("no password account \(name)")
                return .failure
            }
            // Drawn after the commit; a terminal without libqrencode still has the URI to paste.
            let drawing: String
            do throws(QREncodingError) {
                drawing = try EnrolmentQR().terminalText(enrolment.uri.text, style: style)
            } catch {
                drawing = "(no QR code: \(error); enter the URI above or its secret by hand)\n"
            }
            var text = "turned on a second factor for \(name); scan the code below with an authenticator app, or enter the URI:\n\n"
            text += enrolment.uri.text + "\n\n" + drawing + "\n"
            text += "Recovery codes (each signs in once instead of a code; keep them apart from the phone):\n"
            for code in enrolment.recoveryCodes { text += "  \(code.display)\n" }
            try context.output(text)
            return .success
        }
    }
}
