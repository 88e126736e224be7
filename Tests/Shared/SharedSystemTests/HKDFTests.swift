import SharedDomain
import SharedSystem
import Testing

/// RFC 5869 appendix A, cases 1–3 (the SHA-256 ones), through HKDF over libsodium's HMAC.
@Suite struct HKDFTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let ikm: [UInt8]
        let salt: [UInt8]
        let info: [UInt8]
        let length: Int
        let prk: String
        let okm: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "1", ikm: [UInt8](repeating: 0x0B, count: 22), salt: Array(0x00...0x0C), info: Array(0xF0...0xF9),
             length: 42,
             prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
             okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Case(name: "2", ikm: Array(0x00...0x4F), salt: Array(0x60...0xAF), info: Array(0xB0...0xFF), length: 82,
             prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
             okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                + "cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        Case(name: "3", ikm: [UInt8](repeating: 0x0B, count: 22), salt: [], info: [], length: 42,
             prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
             okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: cases)
    func reproducesRFC5869(_ vector: Case) {
        let hkdf = HKDF(authenticator: HMACAuthenticator())
        let prk = hkdf.extract(salt: vector.salt, inputKeyMaterial: vector.ikm)
        #expect(hexString(prk) == vector.prk)
        #expect(hexString(hkdf.expand(pseudorandomKey: prk, info: vector.info, length: vector.length)) == vector.okm)
        #expect(hexString(hkdf.deriveKey(inputKeyMaterial: vector.ikm, salt: vector.salt, info: vector.info,
                                         length: vector.length)) == vector.okm)
    }

    @Test func expandStopsAtAnyLength() {
        let hkdf = HKDF(authenticator: HMACAuthenticator())
        let long = hkdf.expand(pseudorandomKey: [1, 2, 3], info: [], length: 100)
        for length in [0, 1, 31, 32, 33, 64, 65] {
            #expect(hkdf.expand(pseudorandomKey: [1, 2, 3], info: [], length: length) == Array(long.prefix(length)))
        }
    }
}
