import ServerDomain
import SharedSystem

extension InMemoryLedger {
    /// An empty ledger under a random key of its own, as every new database ledger has: the
    /// ledger tests and everything above them use (two of them show different ids).
    public convenience init() {
        self.init(ids: CheckInIDCipher(key: SecureRandom.bytes(CheckInIDCipher.keyLength), authenticator: HMACAuthenticator()))
    }
}

extension InMemoryLedger {
    /// An empty ledger under a random key, telling `observer` of every call's answer.
    public convenience init(observer: any LedgerObserver) {
        self.init(ids: CheckInIDCipher(key: SecureRandom.bytes(CheckInIDCipher.keyLength), authenticator: HMACAuthenticator()), observer: observer)
    }
}
