import CSodium

/// Passwords as libsodium's Argon2id keeps them (`crypto_pwhash_str`): a memory-hard hash with
/// its own random salt and cost, in one string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), so a
/// stolen table of accounts costs an attacker a slow, memory-bound guess per password per
/// account. Never a fast hash.
public enum PasswordHash {
    /// The cost every new hash gets: libsodium's interactive limits (64 MiB, 2 passes; about
    /// a tenth of a second here), fit for a sign-in form.
    public static let opsLimit = UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE)
    /// The memory every new hash takes, in bytes.
    public static let memoryLimit = Int(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE)
    /// Bytes of a password at most (longer ones are refused before hashing: no free CPU burn).
    public static let maximumPasswordBytes = 1024

    /// The hash of `password`; nil only when the system cannot spare the memory.
    public static func make(_ password: String) -> String? {
        let length = password.utf8.count
        guard length <= maximumPasswordBytes else { return nil }
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        // withCString: a pointer even for the empty password (libsodium's arguments are nonnull).
        let status = password.withCString { crypto_pwhash_str(&output, $0, UInt64(length), opsLimit, memoryLimit) }
        guard status == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `hash` was made of (constant time inside libsodium).
    public static func verify(_ password: String, against hash: String) -> Bool {
        let length = password.utf8.count
        guard length <= maximumPasswordBytes, let stored = stored(hash) else { return false }
        return password.withCString { crypto_pwhash_str_verify(stored, $0, UInt64(length)) == 0 }
    }

    /// Whether `hash` was made with other limits than today's (then the password, just
    /// verified, is hashed again and stored: hashes follow the limits as they rise).
    public static func needsRehash(_ hash: String) -> Bool {
        guard let stored = stored(hash) else { return true }
        return crypto_pwhash_str_needs_rehash(stored, opsLimit, memoryLimit) != 0
    }

    /// `hash` in the NUL-padded buffer libsodium reads; nil when it cannot be a hash.
    private static func stored(_ hash: String) -> [CChar]? {
        guard hash.utf8.count < Int(crypto_pwhash_STRBYTES), !hash.utf8.contains(0) else { return nil }
        var stored = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        for (index, byte) in hash.utf8.enumerated() { stored[index] = CChar(bitPattern: byte) }
        return stored
    }
}
