import ServerDomain
import ServerSecondFactor
import SharedDomain

/// What the console needs for second factors: the server's keys (sealing secrets, hashing
/// recovery codes, signing pending sign-ins), the issuer enrolments are filed under, the QR
/// drawing and the random source. Made once by the composition root from the server's secret.
public struct ConsoleSecondFactor: Sendable {
    public let keys: SecondFactorKeys
    public let sealer: TOTPSecretSealer
    public let hasher: RecoveryCodeHasher
    public let authenticator: any MessageAuthenticator
    /// `qrcheckin`, or `qrcheckin (ORGANISATION)` (`OTPAuthURI.issuer(organisation:)`).
    public let issuer: String
    public let qr: EnrolmentQR
    /// The OS's CSPRNG (`SecureRandom.bytes`), or a test's.
    public let random: @Sendable (Int) -> [UInt8]

    /// Second factors under `keys`, HMAC from `authenticator`, enrolments of `issuer`.
    public init(keys: SecondFactorKeys, authenticator: any MessageAuthenticator, issuer: String, qr: EnrolmentQR = EnrolmentQR(),
                random: @escaping @Sendable (Int) -> [UInt8]) {
        self.keys = keys
        self.authenticator = authenticator
        self.issuer = issuer
        self.qr = qr
        self.random = random
        sealer = TOTPSecretSealer(keys: keys, authenticator: authenticator, random: random)
        hasher = RecoveryCodeHasher(keys: keys, authenticator: authenticator)
    }

    /// A new enrolment of `account`.
    func enrol(_ account: String) throws(SecondFactorError) -> TOTPEnrolment {
        try TOTPEnrolment(account: account, issuer: issuer, sealer: sealer, hasher: hasher, random: random)
    }
}
