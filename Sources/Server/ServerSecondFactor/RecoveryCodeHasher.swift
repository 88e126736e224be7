import SharedDomain

/// Hashes recovery codes for the ledger and finds the stored hash a typed code matches. Keyed
/// (HMAC-SHA256 under `SecondFactorKeys`' recovery-code key), so a stolen database alone cannot
/// test guesses offline; the message binds the account, so a hash copied to another account's
/// rows matches nothing there.
public struct RecoveryCodeHasher: Sendable {
    private let keys: SecondFactorKeys
    private let authenticator: any MessageAuthenticator

    /// A hasher with `keys`, HMAC from `authenticator` (`HMACAuthenticator`).
    public init(keys: SecondFactorKeys, authenticator: any MessageAuthenticator) {
        self.keys = keys
        self.authenticator = authenticator
    }

    /// The hash to store for `code` of `account`, under the current key.
    public func hash(_ code: RecoveryCode, account: String) -> RecoveryCodeHash {
        RecoveryCodeHash(bytes: authenticator.authenticationCode(for: Self.message(code, account: account),
                                                                key: keys.current(.recoveryCode)))
    }

    /// The stored hash (one of `account`'s unused codes, `stored`) that `typed` is the code of,
    /// under any of the server's keys; nil when it is none (or not a code at all). The caller
    /// deletes that hash in the transaction that signs in: a code works once, and of two
    /// sign-ins racing with one code only the one whose delete removed a row succeeds.
    public func match(_ typed: String, account: String, among stored: [RecoveryCodeHash]) -> RecoveryCodeHash? {
        guard let code = RecoveryCode(typed: typed) else { return nil }
        let message = Self.message(code, account: account)
        let candidates = keys.all(.recoveryCode).map { authenticator.authenticationCode(for: message, key: $0) }
        // Every stored hash is compared with every candidate, each in constant time: the time
        // taken says nothing of which (if any) matched.
        var found: RecoveryCodeHash?
        for hash in stored {
            let bytes = hash.bytes
            for candidate in candidates where authenticator.isEqualInConstantTime(candidate, bytes) {
                found = found ?? hash
            }
        }
        return found
    }

    /// `QRCHECKIN-RECOVERY-CODE ‖ 0x00 ‖ u8(len(account)) ‖ account ‖ code`: the account and the
    /// code, unambiguously apart.
    static func message(_ code: RecoveryCode, account: String) -> [UInt8] {
        let name = Array(account.utf8.prefix(255))
        return Array("QRCHECKIN-RECOVERY-CODE".utf8) + [0, UInt8(name.count)] + name + Array(code.normalised.utf8)
    }
}
