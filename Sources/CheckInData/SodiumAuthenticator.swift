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

    public func keyed(_ key: [UInt8]) -> any KeyedMessageAuthenticator {
        SodiumKeyedAuthenticator(key: key)
    }
}

/// HMAC-SHA256 under one key: libsodium's state right after `init` (the key's padded blocks
/// already hashed) is kept and copied for each message, which is what `init` would recompute.
final class SodiumKeyedAuthenticator: KeyedMessageAuthenticator, @unchecked Sendable {
    /// Written once in init, read-only after (so sharing between threads is safe), wiped in
    /// deinit. Memory this object owns rather than a stored `var`: reading a class's stored
    /// var costs a dynamic exclusivity check per code.
    private let keyed: UnsafeMutablePointer<crypto_auth_hmacsha256_state>

    init(key: [UInt8]) {
        keyed = .allocate(capacity: 1)
        keyed.initialize(to: crypto_auth_hmacsha256_state())
        crypto_auth_hmacsha256_init(keyed, key, key.count)
    }

    deinit {
        sodium_memzero(keyed, MemoryLayout<crypto_auth_hmacsha256_state>.size)
        keyed.deallocate()
    }

    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= Int(crypto_auth_hmacsha256_BYTES))
        var state = keyed.pointee
        crypto_auth_hmacsha256_update(&state, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count))
        // final wipes the whole state (both key-derived halves) itself: no second memzero per
        // code. SodiumAuthenticatorTests holds libsodium to that.
        crypto_auth_hmacsha256_final(&state, output.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    func matches(_ message: UnsafeRawBufferPointer, truncatedMAC mac: UnsafeRawBufferPointer) -> Bool {
        guard mac.count <= Int(crypto_auth_hmacsha256_BYTES) else { return false }
        // The HMAC in the first 32 bytes, the given MAC after it.
        return withUnsafeTemporaryAllocation(byteCount: 48, alignment: 16) { buffer in
            let output = UnsafeMutableRawBufferPointer(rebasing: buffer[..<32])
            authenticate(message, into: output)
            guard mac.count > 0 else { return true }
            guard mac.count <= 16 else { return sodium_memcmp(output.baseAddress!, mac.baseAddress!, mac.count) == 0 }
            // A token's 13 bytes compared as 16, both padded with zeros: crypto_verify_16 is
            // libsodium's constant-time compare in two SIMD instructions, sodium_memcmp a
            // byte loop (4 % of a verification).
            let given = UnsafeMutableRawBufferPointer(rebasing: buffer[32...])
            given.copyMemory(from: mac)
            given[mac.count...].initializeMemory(as: UInt8.self, repeating: 0)
            output[mac.count..<16].initializeMemory(as: UInt8.self, repeating: 0)
            return crypto_verify_16(output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                    given.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
        }
    }
}
