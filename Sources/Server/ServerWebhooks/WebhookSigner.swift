import ServerDomain
import SharedDomain
import SharedSystem

/// Standard Webhooks' signature: `v1,` and the base64 of HMAC-SHA256 under the secret's key of
/// `webhook-id.webhook-timestamp.body` (HMAC from Nettle or libsodium: `HMACAuthenticator`;
/// base64 from libsodium).
public struct WebhookSigner: Sendable {
    private let authenticator: any MessageAuthenticator

    public init(authenticator: any MessageAuthenticator = HMACAuthenticator()) {
        self.authenticator = authenticator
    }

    /// The key a secret holds (the base64 after `whsec_`); nil when it is not base64.
    public static func key(of secret: WebhookSecret) -> [UInt8]? {
        Base64.decode(secret.encodedKey)
    }

    /// A new secret: 24 random bytes (192 bits; Standard Webhooks asks for 24 to 64).
    public static func newSecret() -> WebhookSecret {
        WebhookSecret(WebhookSecret.prefix + Base64.encode(SecureRandom.bytes(24)))!
    }

    /// The `webhook-signature` value of `body` sent as `id` at `timestamp` (Unix seconds).
    public func signature(id: String, timestamp: Int64, body: [UInt8], key: [UInt8]) -> String {
        let message = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Base64.encode(authenticator.authenticationCode(for: message, key: key))
    }
}
