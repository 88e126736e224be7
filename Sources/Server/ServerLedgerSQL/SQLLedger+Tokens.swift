import ServerDomain
import SharedDomain

/// The API's tokens, beside the console's accounts.
extension SQLLedger {
    /// Inserts `token` unless its name is taken.
    public func addToken(_ token: APIToken, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(TokenStatements.insert, [
            .text(token.name), .text(token.scope.rawValue), .text(token.venues.map(\.rawValue).joined(separator: ",")),
            .text(token.secretHash), .integer(token.created.milliseconds), .text(token.createdBy),
        ], { _ in true }) != nil
    }

    /// The token whose secret hashes to `secretHash`, if any.
    public func token(secretHash: String, on session: any SQLSession) throws(LedgerError) -> APIToken? {
        try session.first(TokenStatements.selectByHash, [.text(secretHash)]) { row throws(LedgerError) in try Self.token(row, session.target) }
    }

    /// Every token, by name.
    public func tokens(on session: any SQLSession) throws(LedgerError) -> [APIToken] {
        try session.all(TokenStatements.selectAll, []) { row throws(LedgerError) in try Self.token(row, session.target) }
    }

    /// Removes the token `name`.
    public func removeToken(named name: String, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(TokenStatements.delete, [.text(name)], { _ in true }) != nil
    }

    /// The token of `row` (`LedgerSchema.tokenColumns` order).
    static func token(_ row: any SQLRow, _ target: String) throws(LedgerError) -> APIToken {
        guard let name = row.text(0), let scope = row.text(1).flatMap(APIScope.init(rawValue:)), let list = row.text(2),
              let hash = row.text(3), let created = try row.integer(4), let by = row.text(5) else {
            throw LedgerError(.corrupt, "\(target): an API token no ledger writes")
        }
        var venues: [VenueID] = []
        for text in list.split(separator: ",") {
            guard let venue = try? VenueID(String(text)) else { throw LedgerError(.corrupt, "\(target): an API token of a malformed venue") }
            venues.append(venue)
        }
        return APIToken(name: name, scope: scope, venues: venues, secretHash: hash, created: WallTime(milliseconds: created), createdBy: by)
    }
}

/// The tokens' statements, rendered once.
enum TokenStatements {
    static let insert = SQLStatement(LedgerSchema.insertToken)
    static let selectByHash = SQLStatement(LedgerSchema.selectTokenByHash)
    static let selectAll = SQLStatement(LedgerSchema.selectTokens)
    static let delete = SQLStatement(LedgerSchema.deleteToken)
}
