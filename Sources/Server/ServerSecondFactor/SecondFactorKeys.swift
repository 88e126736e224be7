import SharedDomain

/// The keys that keep second factors in the ledger unreadable and unforgeable without the
/// server's secret: one seals each account's TOTP secret, one keys the hashes of its recovery
/// codes, one signs the pending sign-in between a password and its code. Derived as the server's other keys are (`SiteKeys`: HKDF-SHA256, salt
/// `QRCHECKIN-SERVER-V1`, info `SITE-KEY:` and the purpose), so every server of one ledger,
/// holding the same secret, reads the same second factors, and a stolen database alone yields
/// none. The first key source seals and hashes; every source opens and matches, so a secret
/// rotation (`--secret-file NEW --secret-file OLD`) keeps every enrolment.
public struct SecondFactorKeys: Sendable {
    /// What a key protects.
    public enum Purpose: String, CaseIterable, Sendable {
        /// The secretbox key of TOTP secrets (`SITE-KEY:totp-secret`).
        case totpSecret = "totp-secret"
        /// The HMAC key of recovery codes' hashes (`SITE-KEY:recovery-code`).
        case recoveryCode = "recovery-code"
        /// The HMAC key of a pending sign-in: a password accepted, its second step not yet
        /// done (`SITE-KEY:pending-sign-in`).
        case pendingSignIn = "pending-sign-in"
    }

    private let keys: [Purpose: [[UInt8]]]

    /// The keys derived from `sources` (not empty) with `authenticator`'s HMAC.
    public init(sources: [SigningKeySource], authenticator: any MessageAuthenticator) {
        precondition(!sources.isEmpty, "a server needs a key")
        let hkdf = HKDF(authenticator: authenticator)
        keys = Dictionary(uniqueKeysWithValues: Purpose.allCases.map { purpose in
            (purpose, sources.map { source in
                let material = switch source {
                case .master(let secret): secret.bytes
                case .venue(let key): key.bytes
                }
                return hkdf.deriveKey(inputKeyMaterial: material, salt: Array("QRCHECKIN-SERVER-V1".utf8),
                                      info: Array("SITE-KEY:\(purpose.rawValue)".utf8), length: 32)
            })
        })
    }

    /// Fixed keys (tests): `keys` for every purpose, the first sealing.
    public init(testing keys: [[UInt8]]) {
        precondition(!keys.isEmpty && keys.allSatisfy { $0.count == 32 }, "32-byte keys")
        self.keys = Dictionary(uniqueKeysWithValues: Purpose.allCases.map { ($0, keys) })
    }

    /// The key new seals and hashes for `purpose` are made with.
    public func current(_ purpose: Purpose) -> [UInt8] { keys[purpose]![0] }

    /// Every key a seal or hash for `purpose` may have been made with, the current one first.
    public func all(_ purpose: Purpose) -> [[UInt8]] { keys[purpose]! }
}
