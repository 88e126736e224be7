import SharedDomain

/// What enabling a second factor for one account makes: what is shown once (the URI, as text
/// and as a QR code, and the recovery codes) and what the ledger keeps (the sealed secret and
/// the codes' hashes). Nothing here is stored yet: the caller stores `sealedSecret` and
/// `recoveryCodeHashes` in one transaction with its audit entry, then shows the rest.
public struct TOTPEnrolment: Sendable {
    /// The account enrolled.
    public let account: String
    /// The authenticator app's enrolment: show it once (it holds the secret).
    public let uri: OTPAuthURI
    /// The secret sealed for the ledger.
    public let sealedSecret: SealedTOTPSecret
    /// The recovery codes: show them once, never store them.
    public let recoveryCodes: [RecoveryCode]
    /// What the ledger keeps of them, in the same order.
    public let recoveryCodeHashes: [RecoveryCodeHash]

    /// A new enrolment of `account` under `issuer` (`OTPAuthURI.issuer(organisation:)`): a new
    /// secret and recovery codes from `random` (`SecureRandom.bytes`).
    public init(account: String, issuer: String, sealer: TOTPSecretSealer, hasher: RecoveryCodeHasher,
                random: (Int) -> [UInt8]) throws(SecondFactorError) {
        let secret = TOTPSecret.generate(random: random)
        self.account = account
        uri = try OTPAuthURI(issuer: issuer, account: account, secret: secret)
        sealedSecret = sealer.seal(secret, account: account)
        recoveryCodes = try RecoveryCode.generateSet(random: random)
        recoveryCodeHashes = recoveryCodes.map { hasher.hash($0, account: account) }
    }
}
