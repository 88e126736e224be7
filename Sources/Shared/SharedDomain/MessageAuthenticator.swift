/// Port: HMAC-SHA256 and a constant-time comparison. The Data layer implements it (Nettle, libsodium);
/// the Domain only composes it (HKDF, token MACs) and never implements a primitive itself.
public protocol MessageAuthenticator: Sendable {
    /// HMAC-SHA256 of `message` under `key` (any key length, as RFC 2104 allows): 32 bytes.
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8]
    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool
    /// `key` prepared once for many messages. A verifier checks hundreds of thousands of codes
    /// a second under a handful of venue keys, so the key's padding is hashed once, not per code.
    func keyed(_ key: [UInt8]) -> any KeyedMessageAuthenticator
}

/// HMAC-SHA256 under one fixed key, on borrowed bytes (no allocation per message).
public protocol KeyedMessageAuthenticator: Sendable {
    /// Writes the 32-byte HMAC of `message` to `output` (at least 32 bytes).
    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    /// Whether the HMAC of `message` starts with `mac`, compared in constant time.
    func matches(_ message: UnsafeRawBufferPointer, truncatedMAC mac: UnsafeRawBufferPointer) -> Bool
}

extension MessageAuthenticator {
    /// A slow but correct default for adapters (test doubles) that only implement the array API.
    public func keyed(_ key: [UInt8]) -> any KeyedMessageAuthenticator {
        ArrayKeyedAuthenticator(authenticator: self, key: key)
    }
}

/// The default `keyed` adapter: copies into arrays and calls the array API.
private struct ArrayKeyedAuthenticator: KeyedMessageAuthenticator {
    let authenticator: any MessageAuthenticator
    let key: [UInt8]

    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        let mac = authenticator.authenticationCode(for: Array(message), key: key)
        output.copyBytes(from: mac)
    }

    func matches(_ message: UnsafeRawBufferPointer, truncatedMAC mac: UnsafeRawBufferPointer) -> Bool {
        let full = authenticator.authenticationCode(for: Array(message), key: key)
        return authenticator.isEqualInConstantTime(Array(full.prefix(mac.count)), Array(mac))
    }
}
