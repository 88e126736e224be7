import SharedDomain

/// The ids check-ins show (receipt URLs, `checkins`, exports, `erase --checkin`): a keyed
/// permutation of the ledger's row ids, so that a receipt number tells nobody how many
/// check-ins came before it, or lets them guess a neighbour's.
///
/// A balanced Feistel network over 48 bits (two halves of 24) whose round function is
/// HMAC-SHA256 under the ledger's own random key (the `MessageAuthenticator` port), as the
/// format-preserving ciphers of NIST SP 800-38G are built (FF3-1 takes 8 rounds of AES). The
/// row ids stay the B-trees' keys (new rows land at one end, `make bench` unchanged); only what
/// is shown goes through the cipher. Row ids and shown ids are both 1 ... 2^48: decimal
/// integers of up to 15 digits, exact in a double (JavaScript, JSON readers).
public struct CheckInIDCipher: Sendable {
    /// The ids either side: 1 ... 2^48 (the network permutes 0 ..< 2^48; both sides are that plus one).
    public static let ids: ClosedRange<Int64> = 1...(1 << 48)
    /// The bytes of a key (HMAC-SHA256's own length).
    public static let keyLength = 32
    /// Rounds of the network: eight, as FF3-1 takes (FF1 takes ten), so every output bit
    /// depends on every input bit several times over. Each round is one HMAC of 4 bytes, two
    /// SHA-256 blocks: the cost is measured in `CheckInIDCipherTests.cost`.
    static let rounds = 8

    private let authenticator: any KeyedMessageAuthenticator

    /// The cipher under `key` (`keyLength` random bytes the ledger keeps) through `authenticator`'s HMAC.
    public init(key: [UInt8], authenticator: any MessageAuthenticator) {
        self.authenticator = authenticator.keyed(key)
    }

    /// The cipher under the key a ledger keeps (hex, `LedgerSchema.selectCheckInIDKey`); a key
    /// that is missing or not `keyLength` bytes of hex is `corrupt` (`ledger` names the database).
    public init(storedKey: String?, authenticator: any MessageAuthenticator, ledger: String) throws(LedgerError) {
        guard let key = storedKey.flatMap(Hex.decode), key.count == Self.keyLength else {
            throw LedgerError(.corrupt, "\(ledger): the ledger's key for check-in ids is missing or damaged")
        }
        self.init(key: key, authenticator: authenticator)
    }

    /// A new key as a ledger stores it: `keyLength` bytes of `random(count)` as hex.
    public static func newStoredKey(_ random: (Int) -> [UInt8]) -> String {
        Hex.encode(random(keyLength))
    }

    /// The id shown for row `row`; a row id outside `ids` (no ledger reaches 2^48 rows) is `corrupt`.
    public func shownID(row: Int64) throws(LedgerError) -> Int64 {
        guard Self.ids.contains(row) else {
            throw LedgerError(.corrupt, "check-in row \(row) is beyond the ids a ledger can show (1 to 2^48)")
        }
        return Int64(encrypt(UInt64(row - 1))) + 1
    }

    /// The row an id shown by `shownID(row:)` names; nil for a number no row id could show (0,
    /// negative, beyond 2^48). Any other number names some row id, which a ledger then looks up:
    /// made-up numbers and another ledger's name rows that do not exist (2^48 is far more than
    /// any ledger holds).
    public func rowID(shown: Int64) -> Int64? {
        guard Self.ids.contains(shown) else { return nil }
        return Int64(decrypt(UInt64(shown - 1))) + 1
    }

    private static let halfMask: UInt64 = (1 << 24) - 1

    private func encrypt(_ value: UInt64) -> UInt64 {
        var left = value >> 24, right = value & Self.halfMask
        for round in 0..<Self.rounds {
            (left, right) = (right, left ^ function(round, right))
        }
        return left << 24 | right
    }

    private func decrypt(_ value: UInt64) -> UInt64 {
        var left = value >> 24, right = value & Self.halfMask
        for round in (0..<Self.rounds).reversed() {
            (left, right) = (right ^ function(round, left), left)
        }
        return left << 24 | right
    }

    /// The round function: the first 24 bits of HMAC(key, round ‖ half as 3 bytes).
    private func function(_ round: Int, _ half: UInt64) -> UInt64 {
        var message: (UInt8, UInt8, UInt8, UInt8) = (UInt8(round), UInt8(truncatingIfNeeded: half >> 16),
                                                     UInt8(truncatingIfNeeded: half >> 8), UInt8(truncatingIfNeeded: half))
        return withUnsafeBytes(of: &message) { message in
            withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { output in
                authenticator.authenticate(message, into: output)
                return UInt64(output[0]) << 16 | UInt64(output[1]) << 8 | UInt64(output[2])
            }
        }
    }
}
