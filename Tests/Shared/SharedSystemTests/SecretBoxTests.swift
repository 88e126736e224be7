import SharedSystem
import Testing

/// libsodium's secretbox through `SecretBox`: what was sealed opens, under its key only, and
/// any change opens to nothing.
@Suite struct SecretBoxTests {
    let key = Array(repeating: UInt8(0x42), count: 32)
    let nonce = Array(0..<UInt8(24))

    @Test func aBoxOpensToItsMessageUnderItsKey() throws {
        let message = Array("a secret".utf8)
        let sealed = SecretBox.seal(message, key: key, nonce: nonce)
        #expect(sealed.count == 24 + 16 + message.count && Array(sealed.prefix(24)) == nonce)
        #expect(SecretBox.open(sealed, key: key) == message)
        #expect(SecretBox.open(SecretBox.seal([], key: key, nonce: nonce), key: key) == [])
    }

    /// The nonce makes the box: one nonce, one box (so a sealer must draw a new nonce each time).
    @Test func theNonceMakesTheBox() {
        let sealed = SecretBox.seal(Array(repeating: 0, count: 8), key: key, nonce: nonce)
        #expect(sealed.count == 48)
        #expect(SecretBox.seal(Array(repeating: 0, count: 8), key: key, nonce: nonce) == sealed, "deterministic for one nonce")
        #expect(SecretBox.seal(Array(repeating: 0, count: 8), key: key, nonce: Array(1...24)) != sealed)
    }

    @Test func anotherKeyAChangedByteOrAShortBoxOpensToNothing() {
        let sealed = SecretBox.seal(Array("a secret".utf8), key: key, nonce: nonce)
        #expect(SecretBox.open(sealed, key: Array(repeating: 0x43, count: 32)) == nil)
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x80
            #expect(SecretBox.open(changed, key: key) == nil, "byte \(index)")
        }
        #expect(SecretBox.open(Array(sealed.prefix(39)), key: key) == nil)
        #expect(SecretBox.open([], key: key) == nil)
    }
}
