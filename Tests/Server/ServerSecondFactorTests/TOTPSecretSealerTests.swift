import SharedDomain
import SharedSystem
import ServerSecondFactor
import Testing

/// TOTP secrets at rest: sealed with libsodium's secretbox under a key the server's secret
/// derives; what a stolen or changed database holds opens to nothing.
@Suite struct TOTPSecretSealerTests {
    static let master = try! MasterSecret(bytes: Array(0..<32))
    static let keys = SecondFactorKeys(sources: [.master(master)], authenticator: HMACAuthenticator())
    let sealer = TOTPSecretSealer(keys: Self.keys, authenticator: HMACAuthenticator(), random: SecureRandom.bytes)
    let secret = TOTPSecret.generate(random: SecureRandom.bytes)

    @Test func aSealedSecretOpensForItsAccount() throws {
        let sealed = sealer.seal(secret, account: "admin")
        #expect(sealed.bytes.count == 61 && sealed.bytes[0] == 1 && sealed.hex.count == 122)
        let opened = try sealer.open(try SealedTOTPSecret(hex: sealed.hex), account: "admin")
        #expect(opened.secret == secret && !opened.needsResealing)
        // A fresh nonce each time: the same secret never seals to the same bytes.
        #expect(sealer.seal(secret, account: "admin") != sealed)
        #expect(!sealed.bytes.contains(subsequence: secret.testBytes))
    }

    @Test func everyChangedByteIsRefused() throws {
        let sealed = sealer.seal(secret, account: "admin").bytes
        for index in 1..<sealed.count {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: SecondFactorError.unopenableSealedSecret) { try sealer.open(try SealedTOTPSecret(bytes: changed), account: "admin") }
        }
        var otherVersion = sealed
        otherVersion[0] = 2
        #expect(throws: SecondFactorError.malformedSealedSecret) { try SealedTOTPSecret(bytes: otherVersion) }
        #expect(throws: SecondFactorError.malformedSealedSecret) { try SealedTOTPSecret(bytes: Array(sealed.prefix(40))) }
        #expect(throws: SecondFactorError.malformedSealedSecret) { try SealedTOTPSecret(hex: "zz") }
        #expect(throws: SecondFactorError.unopenableSealedSecret) { try sealer.open(try SealedTOTPSecret(bytes: Array(sealed.prefix(41))), account: "admin") }
    }

    @Test func anotherAccountsRowOrAnotherServersSecretOpensNothing() throws {
        let sealed = sealer.seal(secret, account: "admin")
        #expect(throws: SecondFactorError.unopenableSealedSecret) { try sealer.open(sealed, account: "steward") }
        let other = try MasterSecret(bytes: Array(1...32))
        let stranger = TOTPSecretSealer(keys: SecondFactorKeys(sources: [.master(other)], authenticator: HMACAuthenticator()),
                                        authenticator: HMACAuthenticator(), random: SecureRandom.bytes)
        #expect(throws: SecondFactorError.unopenableSealedSecret) { try stranger.open(sealed, account: "admin") }
    }

    @Test func aRotatedSecretStillOpensAndAsksToBeSealedAgain() throws {
        let sealed = sealer.seal(secret, account: "admin")
        let newer = try MasterSecret(bytes: Array(100..<132))
        let rotated = TOTPSecretSealer(keys: SecondFactorKeys(sources: [.master(newer), .master(Self.master)], authenticator: HMACAuthenticator()),
                                       authenticator: HMACAuthenticator(), random: SecureRandom.bytes)
        let opened = try rotated.open(sealed, account: "admin")
        #expect(opened.secret == secret && opened.needsResealing)
        let resealed = rotated.seal(opened.secret, account: "admin")
        #expect(try !rotated.open(resealed, account: "admin").needsResealing)
        #expect(throws: SecondFactorError.unopenableSealedSecret) { try sealer.open(resealed, account: "admin") }
    }

    /// TOKEN.md's derivation, pinned: HKDF-SHA256(secret, salt "QRCHECKIN-SERVER-V1",
    /// info "SITE-KEY:totp-secret" / "SITE-KEY:recovery-code", 32 bytes), for secret 00 01 … 1f.
    @Test func theKeysAreTheDocumentedDerivation() {
        let hkdf = HKDF(authenticator: HMACAuthenticator())
        for purpose in SecondFactorKeys.Purpose.allCases {
            let expected = hkdf.deriveKey(inputKeyMaterial: Array(0..<32), salt: Array("QRCHECKIN-SERVER-V1".utf8),
                                          info: Array("SITE-KEY:\(purpose.rawValue)".utf8), length: 32)
            #expect(Self.keys.current(purpose) == expected)
            #expect(Self.keys.all(purpose) == [expected])
        }
        #expect(Hex.encode(Self.keys.current(.totpSecret)) == TOTPSecretSealerTests.documentedTOTPSecretKey)
        #expect(Hex.encode(Self.keys.current(.recoveryCode)) == TOTPSecretSealerTests.documentedRecoveryCodeKey)
    }

    /// The vectors docs/SERVER.md gives ("Second factor").
    static let documentedTOTPSecretKey = "ee4227de448932709954d89dfbbefc893a0bd1aa8136c43731fde5b12fe4d520"
    static let documentedRecoveryCodeKey = "f06b5a366a19df3fae56306b816b08eaaa3ced26abd2ea5b3f4c7125055209b0"
}

extension TOTPSecret {
    /// The bytes, as the package lets its tests see them.
    var testBytes: [UInt8] { bytes }
}

extension Array where Element == UInt8 {
    /// Whether `needle` appears in order, contiguous.
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
