import ServerDomain
import SharedDomain

/// The API's tokens in memory: the reference the database ledgers are held to by `APITokenContract`.
extension InMemoryLedger {
    public func token(secretHash: String) async throws(LedgerError) -> APIToken? {
        try locked { state throws(LedgerError) in state.tokens.values.first { $0.secretHash == secretHash } }
    }

    public func tokens() async throws(LedgerError) -> [APIToken] {
        try locked { state throws(LedgerError) in state.tokens.values.sorted { $0.name < $1.name } }
    }

    /// Adds `token` to `state` unless its name (or its hash) is taken.
    static func addToken(_ token: APIToken, _ state: inout State) -> Bool {
        guard state.tokens[token.name] == nil, !state.tokens.values.contains(where: { $0.secretHash == token.secretHash }) else { return false }
        state.tokens[token.name] = token
        return true
    }
}
