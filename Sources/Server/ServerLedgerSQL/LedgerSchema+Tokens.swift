/// The API's tokens (issue 40): the table (migration 10) and its statements, written once for
/// both engines (`SQLDialect.render`).
extension LedgerSchema {
    /// Tokens as the console's sessions are kept: the hash of the secret its holder sends, never
    /// the secret (a stolen table cannot be replayed), found by that hash at every call; in the
    /// database, so every server of one PostgreSQL knows a token and a removal ends it on all.
    /// `venues` lists the venues it may see, comma-separated (venue ids hold no comma); empty:
    /// every venue. Numbered by issue (39 kiosks = 8, 40 webhooks = 9, 40 tokens = 10).
    static let apiTokensMigration = Migration(version: 10, name: "API tokens", statements: [
        """
        CREATE TABLE api_tokens (
            name TEXT NOT NULL PRIMARY KEY,
            secret_hash TEXT NOT NULL UNIQUE,
            scope TEXT NOT NULL CHECK (scope IN ('read', 'checkin')),
            venues TEXT NOT NULL,
            created_ms BIGINT NOT NULL,
            created_by TEXT NOT NULL
        ){keyed}
        """,
    ])

    /// The columns of `api_tokens`, in the order every ledger selects them.
    public static let tokenColumns = "name, scope, venues, secret_hash, created_ms, created_by"

    /// Adds a token unless one of its name (or, never in practice, of its hash) exists: $1…$6 as
    /// `tokenColumns`. Returns a row when it was added.
    public static let insertToken = """
        INSERT INTO api_tokens (\(tokenColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT DO NOTHING RETURNING name
        """

    /// The token of a secret's hash: $1 hash.
    public static let selectTokenByHash = "SELECT \(tokenColumns) FROM api_tokens WHERE secret_hash = $1"

    /// Every token by name.
    public static let selectTokens = "SELECT \(tokenColumns) FROM api_tokens ORDER BY name"

    /// Removes a token: $1 name. Returns a row when there was one.
    public static let deleteToken = "DELETE FROM api_tokens WHERE name = $1 RETURNING name"
}
