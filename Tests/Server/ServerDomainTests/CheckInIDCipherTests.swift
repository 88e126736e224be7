import Dispatch
import ServerDomain
import SharedSystem
import Testing

/// Shown ids: a permutation of row ids under the ledger's key, reversible, and fixed for ever
/// (a receipt already shown must keep finding its check-in after an upgrade).
struct CheckInIDCipherTests {
    static let cipher = CheckInIDCipher(key: Array(0..<32), authenticator: HMACAuthenticator())

    /// Computed independently (Python's hmac module, the same network): a change of the cipher
    /// would orphan every receipt a ledger has shown.
    @Test func knownAnswers() async throws {
        let expected: [(Int64, Int64)] = [(1, 22_166_930_518_493), (2, 49_373_818_558_792), (3, 79_096_381_228_492),
                                          (1000, 185_688_376_268_374), (1 << 48, 67_600_180_084_658)]
        for (row, shown) in expected {
            #expect(try await Self.cipher.shownID(row: row) == shown)
            #expect(Self.cipher.rowID(shown: shown) == row)
        }
    }

    @Test func everyRowComesBackAndNoTwoShareAnID() async throws {
        var seen = Set<Int64>()
        for row in Int64(1)...20_000 {
            let shown = try await Self.cipher.shownID(row: row)
            #expect(CheckInIDCipher.ids.contains(shown))
            #expect(Self.cipher.rowID(shown: shown) == row)
            seen.insert(shown)
        }
        #expect(seen.count == 20_000)
    }

    @Test func consecutiveRowsShowUnrelatedIDs() async throws {
        let shown = try await (Int64(1)...64).map { row throws(LedgerError) in try Self.cipher.shownID(row: row) }
        #expect(shown != shown.sorted(), "not increasing")
        // Spread over the whole range: the smallest of 64 uniform draws from 2^48 is below
        // 2^40 with probability 1 - (1 - 2^-8)^64 ≈ 22 %, below 2^30 with about 2^-12.
        #expect(shown.min()! > 1 << 30)
    }

    @Test func anotherKeyShowsOtherIDs() async throws {
        let other = CheckInIDCipher(key: SecureRandom.bytes(CheckInIDCipher.keyLength), authenticator: HMACAuthenticator())
        let mine = try await Set((Int64(1)...100).map { row throws(LedgerError) in try Self.cipher.shownID(row: row) })
        let theirs = try await (Int64(1)...100).map { row throws(LedgerError) in try other.shownID(row: row) }
        #expect(mine.isDisjoint(with: theirs))
        // Their numbers decode here to rows no small ledger has.
        #expect(theirs.allSatisfy { (Self.cipher.rowID(shown: $0) ?? 0) > 1_000_000 })
    }

    @Test func numbersNoRowCouldShowNameNothing() async throws {
        for number: Int64 in [0, -1, .min, (1 << 48) + 1, .max] {
            #expect(Self.cipher.rowID(shown: number) == nil)
        }
        await #expect(throws: LedgerError.self) { try await Self.cipher.shownID(row: 0) }
        await #expect(throws: LedgerError.self) { try await Self.cipher.shownID(row: (1 << 48) + 1) }
    }

    /// What an id costs (printed, not asserted: speed is `make bench`'s business).
    @Test func cost() async throws {
        let count = 100_000
        let start = DispatchTime.now().uptimeNanoseconds
        var sum: Int64 = 0
        for row in 1...Int64(count) { sum &+= try await Self.cipher.shownID(row: row) }
        let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
        print("CheckInIDCipher: \(Int(nanoseconds)) ns an id (\(sum % 10))")
    }
}
