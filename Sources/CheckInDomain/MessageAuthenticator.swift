/// Port: HMAC-SHA256 and a constant-time comparison. The Data layer implements it with libsodium;
/// the Domain only composes it (HKDF, token MACs) and never implements a primitive itself.
public protocol MessageAuthenticator: Sendable {
    /// HMAC-SHA256 of `message` under `key` (any key length, as RFC 2104 allows): 32 bytes.
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8]
    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool
}
