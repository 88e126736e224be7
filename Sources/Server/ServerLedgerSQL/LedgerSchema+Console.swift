/// The console's statements, written once for both engines (`SQLDialect.render`).
extension LedgerSchema {
    /// The columns of `console_accounts` an insert sets, in this order.
    public static let accountColumns = "name, role, password_hash, disabled, created_ms, sign_in"

    /// What every ledger selects of an account, in this order: `accountColumns`, the second
    /// factor's secret and last step, and how many recovery codes are left.
    public static let accountSelection = accountColumns + ", totp_secret, totp_last_step, "
        + "(SELECT count(*) FROM console_recovery_codes WHERE console_recovery_codes.account = console_accounts.name)"

    /// Adds an account unless one of its name exists: $1…$6 as `accountColumns`. Returns a row
    /// when it was added.
    public static let insertAccount = """
        INSERT INTO console_accounts (\(accountColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (name) DO NOTHING RETURNING name
        """

    /// One account: $1 name.
    public static let selectAccount = "SELECT \(accountSelection) FROM console_accounts WHERE name = $1"

    /// Every account by name.
    public static let selectAccounts = "SELECT \(accountSelection) FROM console_accounts ORDER BY name"

    /// Gives a password account a second factor: $1 name, $2 sealed secret, $3 last step (or
    /// NULL). Returns a row when it did.
    public static let enableSecondFactor = """
        UPDATE console_accounts SET totp_secret = $2, totp_last_step = $3 WHERE name = $1 AND sign_in = 'password' RETURNING name
        """

    /// Takes an account's second factor away: $1 name. Returns a row when it had one.
    public static let disableSecondFactor = """
        UPDATE console_accounts SET totp_secret = NULL, totp_last_step = NULL WHERE name = $1 AND totp_secret IS NOT NULL RETURNING name
        """

    /// The compare-and-set of a code's step: $1 name, $2 the step, $3 the secret sealed again
    /// (NULL: unchanged). Returns a row only when the step was newer than the last accepted
    /// one. On PostgreSQL a second server's update of the same row waits for the first's
    /// commit and then finds the step taken (its WHERE is evaluated again on the new row).
    public static let acceptSecondFactorStep = """
        UPDATE console_accounts SET totp_last_step = $2, totp_secret = coalesce(CAST($3 AS TEXT), totp_secret)
        WHERE name = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING name
        """

    /// Stores one recovery code's hash: $1 account, $2 hash.
    public static let insertRecoveryCode = "INSERT INTO console_recovery_codes (account, code_hash) VALUES ($1, $2)"

    /// An account's unused recovery codes' hashes: $1 account.
    public static let selectRecoveryCodes = "SELECT code_hash FROM console_recovery_codes WHERE account = $1 ORDER BY code_hash"

    /// Uses one recovery code: $1 account, $2 hash. Returns a row when it was there.
    public static let deleteRecoveryCode = "DELETE FROM console_recovery_codes WHERE account = $1 AND code_hash = $2 RETURNING code_hash"

    /// Deletes every recovery code of an account: $1 account.
    public static let deleteRecoveryCodes = "DELETE FROM console_recovery_codes WHERE account = $1"

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
