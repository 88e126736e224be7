/// HKDF-SHA256 (RFC 5869): extract then expand, two compositions of the injected HMAC.
/// libsodium 1.0.18 has no HKDF, so this builds it from the library's HMAC, as the RFC defines.
public struct HKDF: Sendable {
    /// HMAC-SHA256 output length in bytes.
    public static let hashLength = 32

    private let authenticator: any MessageAuthenticator

    /// Creates HKDF over `authenticator`'s HMAC-SHA256.
    public init(authenticator: any MessageAuthenticator) {
        self.authenticator = authenticator
    }

    /// RFC 5869 §2.2: PRK = HMAC(salt, IKM); an empty salt means 32 zero bytes.
    public func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        let key = salt.isEmpty ? [UInt8](repeating: 0, count: Self.hashLength) : salt
        return authenticator.authenticationCode(for: inputKeyMaterial, key: key)
    }

    /// RFC 5869 §2.3: T(i) = HMAC(PRK, T(i−1) ‖ info ‖ i), concatenated up to `length` (≤ 8160).
    public func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length >= 0 && length <= 255 * Self.hashLength, "HKDF output is at most 8160 bytes")
        var output = [UInt8]()
        output.reserveCapacity(length)
        var block = [UInt8]()
        var counter: UInt8 = 1
        while output.count < length {
            block = authenticator.authenticationCode(for: block + info + [counter], key: pseudorandomKey)
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// Extract then expand.
    public func deriveKey(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        expand(pseudorandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial), info: info, length: length)
    }
}
