import CSodium
import CheckInDomain

/// libsodium's HMAC-SHA256 and `sodium_memcmp` behind the Domain's `MessageAuthenticator` port.
///
/// Uses the init/update/final API, not the one-shot `crypto_auth_hmacsha256`, because only the
/// former takes keys of any length (RFC 4231 cases 6 and 7 use 131-byte keys).
public struct SodiumAuthenticator: MessageAuthenticator {
    /// Creates the adapter, initialising libsodium once per process.
    public init() {
        Sodium.ready()
    }

    public func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var output = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_bytes()))
        crypto_auth_hmacsha256_init(&state, key, key.count)
        crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        crypto_auth_hmacsha256_final(&state, &output)
        // The state holds the key's inner and outer pads.
        sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size)
        return output
    }

    public func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        // Lengths are public (MACs have a fixed size); only the contents must not leak timing.
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }
}
