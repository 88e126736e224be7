/// The statements that were written inside each engine before (issue 38: SQL lives here
/// alone), and those only one engine runs, marked so.
extension LedgerSchema {
    /// PostgreSQL's record of a check-in with a device in one statement (one round trip):
    /// `claimPresence` ($1 venue, $2 device, $3 time, $4 the duplicate time) and, when it took
    /// the claim, `insertCheckIn`'s insert ($5 method, $6 window age, $7 name, $8 phone,
    /// $9 operator). The claim's row stays locked until the commit, so a second server claiming
    /// the same device waits and then finds it claimed. Returns the new id and
    /// `anyWebhookEndpoint`, or no row for a duplicate. SQLite cannot modify rows in a WITH: it
    /// runs the two steps (its one writer makes them one decision).
    public static let claimAndInsert = """
        WITH claim AS (\(claimPresence))
        INSERT INTO checkins (venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator)
        SELECT $1, $3, $5, $6, $2, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM claim)
        RETURNING id, \(anyWebhookEndpoint)
        """

    /// PostgreSQL's lock on one venue's admissions, held until the commit: the two-key form, 32
    /// ("q") keeping it apart from other uses of advisory locks, and the hash of venue $1. Every
    /// server's count-and-insert for a venue with a capacity, and every automatic pass ending
    /// its visits, takes it in turn. SQLite needs none: it has one writer.
    public static let lockVenue = "SELECT pg_advisory_xact_lock(32, hashtext($1))"

    /// A page of open visits, oldest first (by time, then row id): of venue $1 when `atVenue`,
    /// after the row whose time and id are the next two parameters when `after` (`{after}`: the
    /// keyset each dialect reads best, `SQLDialect.keyset`), at most the
    /// last parameter. The partial index of open visits (`{open}`) holds them in the page's
    /// order, (time, id, venue) since migration 13: every venue's page and one venue's (the
    /// venue a filter only, `{filter}`, read from the index) are read in it, and no engine sorts
    /// the rows again.
    public static func selectOpenPage(atVenue: Bool, after: Bool) -> String {
        var conditions = ["exit_ms IS NULL"], next = 1
        if atVenue {
            conditions.append("{filter}venue = $1")
            next = 2
        }
        if after {
            conditions.append("{after $\(next) $\(next + 1)}")
            next += 2
        }
        return "SELECT \(checkInColumns) FROM checkins{open} WHERE \(conditions.joined(separator: " AND ")) ORDER BY at_ms, id LIMIT $\(next)"
    }

    /// The check-in with row id $1.
    public static let checkInByID = "SELECT \(checkInColumns) FROM checkins WHERE id = $1"

    /// Keeps a refused scan: $1 venue (or NULL), $2 time (ms), $3 reason, $4 method.
    public static let insertRefusal = "INSERT INTO refusals (venue, at_ms, reason, method) VALUES ($1, $2, $3, $4)"

    /// The rows of `table` before $1 (ms), counted: a purge's dry run, and what it is due.
    public static func countBefore(_ table: LedgerTable) -> String {
        "SELECT count(*) FROM \(table.rawValue) WHERE at_ms < $1"
    }

    /// Deletes the rows of `table` before $1 (ms).
    public static func deleteBefore(_ table: LedgerTable) -> String {
        "DELETE FROM \(table.rawValue) WHERE at_ms < $1"
    }

    /// The time of the $2-th oldest row of `table` before $1 (ms), 0-based: where one batch of
    /// a SQLite purge ends.
    public static func batchBound(_ table: LedgerTable) -> String {
        "SELECT at_ms FROM \(table.rawValue) WHERE at_ms < $1 ORDER BY at_ms LIMIT 1 OFFSET $2"
    }
}

/// The steps of bringing a schema up to date, besides the migrations themselves.
extension LedgerSchema {
    /// The version a ledger is at (0: none yet).
    public static let selectVersion = "SELECT CAST(coalesce(max(version), 0) AS BIGINT) FROM schema_migrations"

    /// Records that step $1, named $2, ran at $3 (ms).
    public static let recordMigration = "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES ($1, $2, $3)"

    /// SQLite: how many tables the file holds (a new file holds none).
    public static let countSQLiteTables = "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"

    /// SQLite, with `writable_schema` on (`DeclarationEdit`): table $1's declaration with $2
    /// replaced by $3, if it holds $2.
    public static let editSQLiteDeclaration = """
        UPDATE sqlite_schema SET sql = replace(sql, $2, $3) WHERE type = 'table' AND name = $1 AND instr(sql, $2) > 0
        """

    /// PostgreSQL: the server's encoding and the schema tables are made in.
    public static let selectEncodingAndSchema = "SELECT current_setting('server_encoding'), current_schema()"

    /// PostgreSQL: a transaction's lock on $1, one of the ledger's own advisory locks
    /// (migrations, copies), held until its commit.
    public static let lockLedger = "SELECT pg_advisory_xact_lock($1)"

    /// PostgreSQL: the ledger's tables in schema $1 and their comments (ours is marked).
    public static let selectLedgerTables = """
        SELECT c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname IN ('schema_migrations', 'checkins', 'presence', 'refusals')
        """

    /// PostgreSQL: marks `schema_migrations` as the ledger's (`marker`: a fixed text, no value).
    public static func markMigrationsTable(_ marker: String) -> String {
        "COMMENT ON TABLE schema_migrations IS '\(marker)'"
    }
}
