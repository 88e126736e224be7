import SharedDomain

/// The keys the server signs its own tokens with: device cookies, visitor-form tickets and form
/// tokens. Derived (HKDF, one label per purpose) from the server's signing keys, so every
/// server that verifies the same codes accepts the same cookies, across restarts, with nothing
/// to store or share. The first key source signs; every source verifies, so a secret rotation
/// (`--secret-file NEW --secret-file OLD`) keeps the phones' cookies.
public struct SiteKeys: Sendable {
    /// What a key signs.
    public enum Purpose: String, CaseIterable, Sendable {
        /// The device cookie (`qrcheckin_device`).
        case deviceCookie = "device-cookie"
        /// The visitor form's ticket.
        case visitorTicket = "visitor-ticket"
        /// The hidden token of the pages' forms.
        case formToken = "form-token"
    }

    private let keys: [Purpose: [[UInt8]]]

    /// The keys derived from `sources` (not empty) with `authenticator`'s HMAC.
    public init(sources: [SigningKeySource], authenticator: any MessageAuthenticator) {
        precondition(!sources.isEmpty, "a server needs a key")
        let hkdf = HKDF(authenticator: authenticator)
        var keys: [Purpose: [[UInt8]]] = [:]
        for purpose in Purpose.allCases {
            keys[purpose] = sources.map { source in
                let material = switch source {
                case .master(let secret): secret.bytes
                case .venue(let key): key.bytes
                }
                return hkdf.deriveKey(inputKeyMaterial: material, salt: Array("QRCHECKIN-SERVER-V1".utf8),
                                      info: Array("SITE-KEY:\(purpose.rawValue)".utf8), length: 32)
            }
        }
        self.keys = keys
    }

    /// Fixed keys (tests): `key` for every purpose.
    public init(testing key: [UInt8]) {
        keys = Dictionary(uniqueKeysWithValues: Purpose.allCases.map { ($0, [key]) })
    }

    /// The key new tokens for `purpose` are signed with.
    public func signing(_ purpose: Purpose) -> [UInt8] { keys[purpose]![0] }

    /// Every key a token for `purpose` may have been signed with, the signing one first.
    public func verifying(_ purpose: Purpose) -> [[UInt8]] { keys[purpose]! }
}
