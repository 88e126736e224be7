import CSodium

/// BLAKE2b (libsodium's `crypto_generichash`): a one-way hash, unkeyed.
public enum GenericHash {
    /// The `length`-byte (16…64) hash of `bytes`.
    public static func digest(_ bytes: [UInt8], length: Int = 16) -> [UInt8] {
        precondition((16...64).contains(length), "hash length out of range")
        var output = [UInt8](repeating: 0, count: length)
        _ = crypto_generichash(&output, length, bytes, UInt64(bytes.count), nil, 0)
        return output
    }
}
