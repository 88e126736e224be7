/// Port: the API's tokens, kept in the ledger's database beside the console's accounts (SQLite,
/// PostgreSQL, or memory for tests), all of them passing `APITokenContract`. A token is added
/// and removed by an operator's action with its audit entry (`TokenChanges`, through
/// `LedgerTransaction.addToken` and `removeToken`); these are the reads.
public protocol APITokens: Sendable {
    /// The token whose secret hashes to `secretHash`, if any: every API call's lookup.
    func token(secretHash: String) async throws(LedgerError) -> APIToken?

    /// Every token, by name.
    func tokens() async throws(LedgerError) -> [APIToken]
}
