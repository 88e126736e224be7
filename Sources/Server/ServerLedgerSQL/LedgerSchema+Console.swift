/// The console's statements, written once for both engines (`SQLDialect.render`).
extension LedgerSchema {
    /// The columns of `console_accounts`, in the order every ledger selects them.
    public static let accountColumns = "name, role, password_hash, disabled, created_ms"

    /// Adds an account unless one of its name exists: $1…$5 as `accountColumns`. Returns a row
    /// when it was added.
    public static let insertAccount = """
        INSERT INTO console_accounts (\(accountColumns)) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (name) DO NOTHING RETURNING name
        """

    /// One account: $1 name.
    public static let selectAccount = "SELECT \(accountColumns) FROM console_accounts WHERE name = $1"

    /// Every account by name.
    public static let selectAccounts = "SELECT \(accountColumns) FROM console_accounts ORDER BY name"

    /// Changes an account: $1 name, $2 role, $3 hash, $4 disabled (each NULL: unchanged).
    public static let updateAccount = """
        UPDATE console_accounts SET role = coalesce(CAST($2 AS TEXT), role), password_hash = coalesce(CAST($3 AS TEXT), password_hash),
        disabled = coalesce(CAST($4 AS BIGINT), disabled) WHERE name = $1 RETURNING name
        """

    /// Removes an account: $1 name. Returns a row when there was one.
    public static let deleteAccount = "DELETE FROM console_accounts WHERE name = $1 RETURNING name"

    /// Ends an account's sessions: $1 name.
    public static let deleteAccountSessions = "DELETE FROM console_sessions WHERE account = $1"

    /// The columns of `console_sessions`, in the order every ledger selects them.
    public static let sessionColumns = "id_hash, account, created_ms, seen_ms, form_token"

    /// Stores a session: $1…$5 as `sessionColumns`.
    public static let insertSession = "INSERT INTO console_sessions (\(sessionColumns)) VALUES ($1, $2, $3, $4, $5)"

    /// One session: $1 id hash.
    public static let selectSession = "SELECT \(sessionColumns) FROM console_sessions WHERE id_hash = $1"

    /// Marks a session used: $1 id hash, $2 time (ms).
    public static let touchSession = "UPDATE console_sessions SET seen_ms = $2 WHERE id_hash = $1"

    /// Ends a session: $1 id hash.
    public static let deleteSession = "DELETE FROM console_sessions WHERE id_hash = $1"

    /// Ends the sessions idle since before $1 or begun before $2 (ms).
    public static let purgeSessions = "DELETE FROM console_sessions WHERE seen_ms < $1 OR created_ms < $2"
}

extension LedgerSchema {
    /// Refusals since $1 (ms), counted: venue, reason, count (the dashboard's; `refusals_at`).
    public static let countRefusals = "SELECT venue, reason, count(*) FROM refusals WHERE at_ms >= $1 GROUP BY venue, reason"
}
