/// The cryptography the console uses, injected by the composition root (libsodium there,
/// deterministic fakes in tests): random bytes, a one-way hash, Argon2id passwords and a
/// constant-time compare. Nothing here is hand-written. A password's hash takes a tenth of a
/// second of CPU and 64 MiB: `serve` runs it on the blocking pool, hence `async`.
public struct ConsoleCrypto: Sendable {
    /// `count` unpredictable bytes (randombytes_buf).
    public let random: @Sendable (Int) -> [UInt8]
    /// A 32-byte one-way hash (BLAKE2b): what is stored of a session id.
    public let digest: @Sendable ([UInt8]) -> [UInt8]
    /// Whether a password is the one a stored hash was made of (crypto_pwhash_str_verify).
    public let verifyPassword: @Sendable (_ password: String, _ hash: String) async -> Bool
    /// A new hash of a password (crypto_pwhash_str); nil when memory is short.
    public let hashPassword: @Sendable (String) async -> String?
    /// Whether a stored hash was made with lower limits than today's.
    public let needsRehash: @Sendable (String) -> Bool
    /// Whether two byte strings are equal, in time independent of where they differ.
    public let equal: @Sendable ([UInt8], [UInt8]) -> Bool

    /// These functions.
    public init(random: @escaping @Sendable (Int) -> [UInt8], digest: @escaping @Sendable ([UInt8]) -> [UInt8],
                verifyPassword: @escaping @Sendable (String, String) async -> Bool, hashPassword: @escaping @Sendable (String) async -> String?,
                needsRehash: @escaping @Sendable (String) -> Bool, equal: @escaping @Sendable ([UInt8], [UInt8]) -> Bool) {
        self.random = random
        self.digest = digest
        self.verifyPassword = verifyPassword
        self.hashPassword = hashPassword
        self.needsRehash = needsRehash
        self.equal = equal
    }

    /// Whether two texts are equal, in constant time.
    func same(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        return left.count == right.count && equal(left, right)
    }

    /// `count` random bytes as lower-case hex.
    func randomHex(_ count: Int) -> String { Self.hex(random(count)) }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
