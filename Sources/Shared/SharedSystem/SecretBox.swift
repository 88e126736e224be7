import CSodium

/// libsodium's `crypto_secretbox` (XSalsa20 and Poly1305): a secret kept where others can read
/// it (a database), encrypted and authenticated under a key they do not have. A changed byte, a
/// wrong key or a box cut short opens to nothing, never to other bytes.
public enum SecretBox {
    /// Bytes of a key: 32.
    public static let keyLength = Int(crypto_secretbox_KEYBYTES)
    /// Bytes of a nonce: 24, enough to be drawn at random for every box (no counter to keep).
    public static let nonceLength = Int(crypto_secretbox_NONCEBYTES)
    /// Bytes a box adds to its message besides the nonce: the 16-byte authenticator.
    public static let macLength = Int(crypto_secretbox_MACBYTES)

    /// `message` sealed under `key` (`keyLength` bytes) with `nonce` (`nonceLength` bytes, never
    /// used twice under one key: random ones are fine), as `nonce ‖ authenticator ‖ ciphertext`.
    public static func seal(_ message: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == keyLength && nonce.count == nonceLength, "a secretbox key is 32 bytes, a nonce 24")
        var box = [UInt8](repeating: 0, count: macLength + message.count)
        // Fails only for a message longer than libsodium's limit (about 2^64 bytes).
        _ = crypto_secretbox_easy(&box, message, UInt64(message.count), nonce, key)
        return nonce + box
    }

    /// The message `sealed` (as `seal` made it) holds under `key`; nil when it was sealed under
    /// another key, was changed, or is too short to be a box.
    public static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
        precondition(key.count == keyLength, "a secretbox key is 32 bytes")
        guard sealed.count >= nonceLength + macLength else { return nil }
        let nonce = Array(sealed[..<nonceLength]), box = Array(sealed[nonceLength...])
        var message = [UInt8](repeating: 0, count: box.count - macLength)
        guard crypto_secretbox_open_easy(&message, box, UInt64(box.count), nonce, key) == 0 else { return nil }
        return message
    }
}
