import SharedDomain
import SharedSystem
import ServerSecondFactor
import Testing

@Suite struct RecoveryCodeTests {
    static let keys = SecondFactorKeys(testing: [Array(repeating: 7, count: 32)])
    let hasher = RecoveryCodeHasher(keys: Self.keys, authenticator: HMACAuthenticator())

    @Test func aSetIsTenCodesOfEightyRandomBits() throws {
        var asked = [Int]()
        let codes = try RecoveryCode.generateSet { count in asked.append(count); return SecureRandom.bytes(count) }
        #expect(asked == Array(repeating: 10, count: 10))
        #expect(codes.count == 10 && Set(codes).count == 10)
        for code in codes {
            #expect(code.normalised.count == 16)
            #expect(code.display.count == 19 && code.display.split(separator: "-").map(\.count) == [4, 4, 4, 4])
            #expect("\(code)" == "RecoveryCode(redacted)")
        }
    }

    @Test func typingIgnoresCaseDashesAndSpacesAndReadsDigitsAsTheLettersTheyLookLike() throws {
        let code = try #require(RecoveryCode(typed: "ABCD-EFGH-IJKL-MNOP"))
        #expect(code.display == "ABCD-EFGH-IJKL-MNOP")
        for typed in ["abcdefghijklmnop", " abcd efgh ijkl mnop ", "aBcD-eFgH-iJkL-mNoP", "ABCD--EFGH\tIJKL MNOP", "a8cd-efgh-1jkl-mn0p"] {
            #expect(RecoveryCode(typed: typed) == code, "\(typed.debugDescription)")
        }
        for typed in ["", "ABCD-EFGH-IJKL-MNO", "ABCD-EFGH-IJKL-MNOPQ", "ABCD-EFGH-IJKL-MNO9", "ABCD-EFGH-IJKL-MNÖP", "ABCD_EFGH_IJKL_MNOP"] {
            #expect(RecoveryCode(typed: typed) == nil, "\(typed.debugDescription)")
        }
    }

    @Test func onlyKeyedHashesAreKeptAndEachCodeWorksOnce() throws {
        let codes = try RecoveryCode.generateSet(random: SecureRandom.bytes)
        var stored = codes.map { hasher.hash($0, account: "admin") }
        #expect(Set(stored).count == 10 && stored.allSatisfy { $0.hex.count == 64 })
        #expect(stored.allSatisfy { !$0.hex.uppercased().contains(codes[0].normalised) })
        // The fourth code, typed loosely, finds its own hash; the ledger deletes it.
        let typed = codes[3].display.lowercased().replacingOccurrences(of: "-", with: " ")
        let used = try #require(hasher.match(typed, account: "admin", among: stored))
        #expect(used == stored[3])
        stored.removeAll { $0 == used }
        // Used once: the same code finds nothing now; the others still work.
        #expect(hasher.match(typed, account: "admin", among: stored) == nil)
        #expect(hasher.match(codes[4].display, account: "admin", among: stored) == stored[3])
        #expect(hasher.match("not a code", account: "admin", among: stored) == nil)
    }

    @Test func aHashIsBoundToItsAccountAndToTheServersKey() throws {
        let code = try #require(RecoveryCode(typed: "ABCD-EFGH-IJKL-MNOP"))
        let stored = [hasher.hash(code, account: "admin")]
        #expect(hasher.match(code.display, account: "steward", among: stored) == nil)
        let otherServer = RecoveryCodeHasher(keys: SecondFactorKeys(testing: [Array(repeating: 8, count: 32)]), authenticator: HMACAuthenticator())
        #expect(otherServer.match(code.display, account: "admin", among: stored) == nil)
        // After a secret rotation (new key first, old second) the old hashes still match.
        let rotated = RecoveryCodeHasher(keys: SecondFactorKeys(testing: [Array(repeating: 8, count: 32), Array(repeating: 7, count: 32)]),
                                         authenticator: HMACAuthenticator())
        #expect(rotated.match(code.display, account: "admin", among: stored) == stored[0])
    }

    @Test func storedTextIsReadBack() {
        let hash = hasher.hash(RecoveryCode(typed: "ABCDEFGHIJKLMNOP")!, account: "admin")
        #expect(RecoveryCodeHash(hex: hash.hex) == hash)
        #expect(RecoveryCodeHash(hex: hash.hex.uppercased()) == hash)
        #expect(RecoveryCodeHash(hex: String(hash.hex.dropLast())) == nil)
        #expect(RecoveryCodeHash(hex: String(repeating: "g", count: 64)) == nil)
    }
}
