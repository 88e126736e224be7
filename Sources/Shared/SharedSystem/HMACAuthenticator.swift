import CHMAC
import CSodium
import SharedDomain

/// The Domain's `MessageAuthenticator` port: HMAC-SHA256 from Nettle where it loads, else
/// libsodium (CHMAC says why, and why Nettle is loaded on first use rather than linked);
/// constant-time compares from libsodium.
public struct HMACAuthenticator: MessageAuthenticator {
    /// Which library computes the HMACs.
    public enum Library: Sendable {
        /// Nettle when libnettle.so.8 loads, else libsodium: what qrcheckin uses.
        case fastest
        /// Nettle's SHA-256 (the CPU's SHA extensions where there are any).
        case nettle
        /// libsodium's portable SHA-256.
        case libsodium

        var c: chmac_library {
            switch self {
            case .fastest: CHMAC_FASTEST
            case .nettle: CHMAC_NETTLE
            case .libsodium: CHMAC_LIBSODIUM
            }
        }

        /// Whether this library can compute here (for `.nettle`: libnettle.so.8 loads).
        public var isAvailable: Bool { chmac_available(c) != 0 }
    }

    private let library: Library

    /// Creates the adapter. Nothing is loaded yet: Nettle on the first key prepared, libsodium
    /// (CSodium) on its first call, so a process that only computes HMACs never maps libsodium.
    public init(library: Library = .fastest) {
        self.library = library
    }

    public func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var prepared = chmac_key()
        var output = [UInt8](repeating: 0, count: 32)
        chmac_prepare(&prepared, key, key.count, library.c)
        chmac_compute(&prepared, message, message.count, &output)
        // The prepared key holds its inner and outer states.
        chmac_wipe(&prepared)
        return output
    }

    public func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        // Lengths are public (MACs have a fixed size); only the contents must not leak timing.
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }

    public func keyed(_ key: [UInt8]) -> any KeyedMessageAuthenticator {
        HMACKeyedAuthenticator(key: key, library: library)
    }
}

/// HMAC-SHA256 under one key, prepared once (its padded blocks hashed) and copied per message.
final class HMACKeyedAuthenticator: KeyedMessageAuthenticator, @unchecked Sendable {
    /// Written once in init, read-only after (so sharing between threads is safe), wiped in
    /// deinit. Memory this object owns rather than a stored `var`: reading a class's stored
    /// var costs a dynamic exclusivity check per code.
    private let prepared: UnsafeMutablePointer<chmac_key>

    init(key: [UInt8], library: HMACAuthenticator.Library) {
        prepared = .allocate(capacity: 1)
        prepared.initialize(to: chmac_key())
        chmac_prepare(prepared, key, key.count, library.c)
    }

    deinit {
        chmac_wipe(prepared)
        prepared.deallocate()
    }

    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 32)
        chmac_compute(prepared, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                      output.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    func matches(_ message: UnsafeRawBufferPointer, truncatedMAC mac: UnsafeRawBufferPointer) -> Bool {
        guard mac.count <= 32 else { return false }
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
