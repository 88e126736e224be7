import SharedSystem
import Testing

/// RFC 4231 HMAC-SHA256 test cases through both libraries HMACAuthenticator computes with
/// (case 5 is a truncation test), and the keyed path agreeing with the one-shot one.
@Suite struct HMACAuthenticatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let mac: String
        var testDescription: String { name }
    }

    static let largeKey = [UInt8](repeating: 0xAA, count: 131)
    static let cases: [Case] = [
        Case(name: "1", key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8),
             mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Case(name: "2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
             mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Case(name: "3", key: [UInt8](repeating: 0xAA, count: 20), data: [UInt8](repeating: 0xDD, count: 50),
             mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Case(name: "4", key: Array(1...25), data: [UInt8](repeating: 0xCD, count: 50),
             mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Case(name: "6", key: largeKey, data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Case(name: "7", key: largeKey,
             data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                 + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
             mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: cases)
    func reproducesRFC4231(_ vector: Case) {
        for library in [HMACAuthenticator.Library.fastest, .nettle, .libsodium] {
            let authenticator = HMACAuthenticator(library: library)
            #expect(hexString(authenticator.authenticationCode(for: vector.data, key: vector.key)) == vector.mac, "\(library)")
            let keyed = authenticator.keyed(vector.key)
            var output = [UInt8](repeating: 0, count: 32)
            vector.data.withUnsafeBytes { bytes in output.withUnsafeMutableBytes { keyed.authenticate(bytes, into: $0) } }
            #expect(hexString(output) == vector.mac, "\(library), keyed")
        }
    }

    /// The package depends on libnettle8 and the build on nettle-dev: on a machine that built
    /// qrcheckin, Nettle must load, or every HMAC silently runs at a quarter of the speed.
    @Test func nettleLoadsHere() {
        #expect(HMACAuthenticator.Library.nettle.isAvailable)
    }

    /// The keyed authenticator copies one prepared key per message: every length (within a
    /// block, across one, several blocks) gives the one-shot HMAC, message after message, and
    /// the two libraries agree.
    @Test(arguments: [HMACAuthenticator.Library.nettle, .libsodium])
    func keyedCopiesAgreeWithTheOneShotHMACAtEveryLength(_ library: HMACAuthenticator.Library) {
        let authenticator = HMACAuthenticator(library: library)
        let key = [UInt8](repeating: 0x5A, count: 32)
        let keyed = authenticator.keyed(key)
        var output = [UInt8](repeating: 0, count: 32)
        for length in [0, 1, 40, 55, 56, 63, 64, 65, 119, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            message.withUnsafeBytes { bytes in output.withUnsafeMutableBytes { keyed.authenticate(bytes, into: $0) } }
            #expect(output == authenticator.authenticationCode(for: message, key: key), "length \(length)")
            #expect(output == HMACAuthenticator(library: .libsodium).authenticationCode(for: message, key: key), "length \(length)")
        }
    }

    @Test(arguments: [0, 1, 12, 13, 15, 16, 17, 31, 32])
    func keyedMatchingTakesEveryTruncationAndRefusesEveryFlippedBit(length: Int) {
        let authenticator = HMACAuthenticator()
        let key = [UInt8](repeating: 0x42, count: 32), message = Array("QRCHECKIN-TOKEN message".utf8)
        let full = authenticator.authenticationCode(for: message, key: key)
        let keyed = authenticator.keyed(key)
        let truncated = Array(full.prefix(length))
        message.withUnsafeBytes { message in
            #expect(truncated.withUnsafeBytes { keyed.matches(message, truncatedMAC: $0) })
            for bit in 0..<(length * 8) {
                var flipped = truncated
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                #expect(!flipped.withUnsafeBytes { keyed.matches(message, truncatedMAC: $0) }, "bit \(bit)")
            }
        }
        #expect(!(full + [0]).withUnsafeBytes { mac in message.withUnsafeBytes { keyed.matches($0, truncatedMAC: mac) } })
    }

    @Test func emptyMessageAndKeyWork() {
        // HMAC-SHA256("", "") is a well-known value.
        #expect(hexString(HMACAuthenticator().authenticationCode(for: [], key: []))
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func constantTimeEqualityComparesContentAndLength() {
        let auth = HMACAuthenticator()
        #expect(auth.isEqualInConstantTime([1, 2, 3], [1, 2, 3]))
        #expect(!auth.isEqualInConstantTime([1, 2, 3], [1, 2, 4]))
        #expect(!auth.isEqualInConstantTime([1, 2, 3], [1, 2]))
        #expect(auth.isEqualInConstantTime([], []))
    }

    @Test func secureRandomGivesTheRequestedCountAndDiffers() {
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(SecureRandom.bytes(0).isEmpty)
    }
}
