import CSodium

/// Random bytes from the OS CSPRNG (getrandom(2)) through libsodium's `randombytes_buf`.
public enum SecureRandom {
    /// `count` unpredictable bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        if count > 0 { randombytes_buf(&buffer, count) }
        return buffer
    }
}
