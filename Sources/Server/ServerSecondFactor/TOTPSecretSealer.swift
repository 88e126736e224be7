import SharedDomain
import SharedSystem

/// Seals TOTP secrets for the ledger and opens them again (libsodium's secretbox, never our
/// own cipher). Each account's secret is sealed under its own key, HKDF-expanded from the
/// server's TOTP-secret key with the account's name, so a sealed secret copied onto another
/// account's row opens to nothing.
public struct TOTPSecretSealer: Sendable {
    /// A secret opened, and whether it should be sealed again (it opened only under an older
    /// key of a secret rotation: sealed again, it survives the old secret's retirement).
    public struct Opened: Sendable {
        /// The secret.
        public let secret: TOTPSecret
        /// Whether an older key than the current one opened it.
        public let needsResealing: Bool
    }

    private let keys: SecondFactorKeys
    private let hkdf: HKDF
    private let random: @Sendable (Int) -> [UInt8]

    /// A sealer with `keys`, HKDF over `authenticator`, and nonces from `random` (the OS's
    /// CSPRNG: `SecureRandom.bytes`).
    public init(keys: SecondFactorKeys, authenticator: any MessageAuthenticator, random: @escaping @Sendable (Int) -> [UInt8]) {
        self.keys = keys
        self.hkdf = HKDF(authenticator: authenticator)
        self.random = random
    }

    /// `secret` sealed for `account` under the current key, with a fresh random nonce.
    public func seal(_ secret: TOTPSecret, account: String) -> SealedTOTPSecret {
        let nonce = random(SecretBox.nonceLength)
        let box = SecretBox.seal(secret.bytes, key: key(keys.current(.totpSecret), account: account), nonce: nonce)
        return SealedTOTPSecret(box: box)
    }

    /// The secret `sealed` holds for `account`, opened under whichever of the server's keys
    /// sealed it.
    public func open(_ sealed: SealedTOTPSecret, account: String) throws(SecondFactorError) -> Opened {
        let box = Array(sealed.bytes.dropFirst())
        for (index, purposeKey) in keys.all(.totpSecret).enumerated() {
            guard let bytes = SecretBox.open(box, key: key(purposeKey, account: account)) else { continue }
            return Opened(secret: try TOTPSecret(bytes: bytes), needsResealing: index > 0)
        }
        throw .unopenableSealedSecret
    }

    /// The secretbox key of `account`'s secret under `purposeKey` (RFC 5869 expand; the purpose
    /// key is already uniform, HKDF's own output).
    private func key(_ purposeKey: [UInt8], account: String) -> [UInt8] {
        hkdf.expand(pseudorandomKey: purposeKey, info: Array("TOTP-SECRET:\(account)".utf8), length: SecretBox.keyLength)
    }
}
