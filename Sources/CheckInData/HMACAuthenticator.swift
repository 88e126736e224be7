import CNettle
import CSodium
import CheckInDomain

/// The Domain's `MessageAuthenticator` port: HMAC-SHA256 from Nettle, constant-time compares
/// from libsodium.
///
/// Why two libraries: Nettle's SHA-256 uses the CPU's SHA extensions where there are any (its
/// Debian build picks the code at run time), and an HMAC of a token's 40 bytes under a keyed
/// state costs a quarter of libsodium's portable C here (7.7–8.0 M/s against 2.1 M/s on one
/// core). `verify --stdin` spent 60 % of its instructions in libsodium's SHA-256.
/// libsodium keeps everything else it does for qrcheckin: the constant-time compares
/// (`crypto_verify_16`, `sodium_memcmp`), wiping, randomness and BLAKE2b.
public struct HMACAuthenticator: MessageAuthenticator {
    /// Creates the adapter, initialising libsodium once per process.
    public init() {
        Sodium.ready()
    }

    public func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        // Nettle hashes a key longer than a block first (RFC 2104), as RFC 4231 cases 6 and 7 need.
        var context = hmac_sha256_ctx()
        var output = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        nettle_hmac_sha256_set_key(&context, key.count, key)
        nettle_hmac_sha256_update(&context, message.count, message)
        nettle_hmac_sha256_digest(&context, output.count, &output)
        // The context holds the key's inner and outer states.
        sodium_memzero(&context, MemoryLayout<hmac_sha256_ctx>.size)
        return output
    }

    public func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        // Lengths are public (MACs have a fixed size); only the contents must not leak timing.
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }

    public func keyed(_ key: [UInt8]) -> any KeyedMessageAuthenticator {
        HMACKeyedAuthenticator(key: key)
    }
}

/// HMAC-SHA256 under one key: Nettle's context right after `set_key` (the key's padded blocks
/// already hashed into its inner and outer states) is kept and copied for each message, which
/// is what `set_key` would recompute.
final class HMACKeyedAuthenticator: KeyedMessageAuthenticator, @unchecked Sendable {
    /// Written once in init, read-only after (so sharing between threads is safe), wiped in
    /// deinit. Memory this object owns rather than a stored `var`: reading a class's stored
    /// var costs a dynamic exclusivity check per code.
    private let keyed: UnsafeMutablePointer<hmac_sha256_ctx>

    init(key: [UInt8]) {
        keyed = .allocate(capacity: 1)
        keyed.initialize(to: hmac_sha256_ctx())
        nettle_hmac_sha256_set_key(keyed, key.count, key)
    }

    deinit {
        sodium_memzero(keyed, MemoryLayout<hmac_sha256_ctx>.size)
        keyed.deallocate()
    }

    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= Int(SHA256_DIGEST_SIZE))
        var context = keyed.pointee
        nettle_hmac_sha256_update(&context, message.count, message.baseAddress?.assumingMemoryBound(to: UInt8.self))
        nettle_hmac_sha256_digest(&context, Int(SHA256_DIGEST_SIZE), output.baseAddress!.assumingMemoryBound(to: UInt8.self))
        // Unlike libsodium's final, Nettle's digest leaves the key's states in the copy (it
        // resets the context for the next message): the copy is wiped here.
        sodium_memzero(&context, MemoryLayout<hmac_sha256_ctx>.size)
    }

    func matches(_ message: UnsafeRawBufferPointer, truncatedMAC mac: UnsafeRawBufferPointer) -> Bool {
        guard mac.count <= Int(SHA256_DIGEST_SIZE) else { return false }
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
