import ServerDomain
import SharedDomain

// APITokens, written once for both SQL engines: a point read by the secret's hash (the
// table's unique key) on a read session, as every other read.
extension SQLEngine {
    public func token(secretHash: String) async throws(LedgerError) -> APIToken? {
        try await reading { [sql] session throws(LedgerError) in try sql.token(secretHash: secretHash, on: session) }
    }

    public func tokens() async throws(LedgerError) -> [APIToken] {
        try await reading { [sql] session throws(LedgerError) in try sql.tokens(on: session) }
    }
}
