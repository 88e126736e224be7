/// The kiosks' tables and statements (issue 39), written once for both engines
/// (`SQLDialect.render`).
///
/// `kiosks`: one row per kiosk (venue, name), its latest report's body exactly as signed (JSON,
/// at most 4 KiB, no visitor data) and when it arrived by the server's clock: an upsert per
/// report, never a history. `kiosk_steers`: the steers operators gave, at most one row per
/// kiosk once a steer is given (a new one replaces it, merged with what was still pending),
/// under ids that increase and are never reused (`{serial}`), so a kiosk that remembers the
/// last id it applied never mistakes a new steer for it, also after being forgotten.
/// `kiosk_nonces`: each kiosk's report nonces with their signed times, forgotten by the kiosk's
/// next report once older than the replay window: every server of one database refuses a
/// copy; a kiosk keeps at most its reports of the window (about 10 at the default interval).
extension LedgerSchema {
    /// Migration 8's statements.
    static let kioskTables = [
        """
        CREATE TABLE kiosks (
            venue TEXT NOT NULL,
            kiosk TEXT NOT NULL,
            report TEXT NOT NULL,
            received_ms BIGINT NOT NULL,
            PRIMARY KEY (venue, kiosk)
        ){keyed}
        """,
        """
        CREATE TABLE kiosk_steers (
            id {serial},
            venue TEXT NOT NULL,
            kiosk TEXT NOT NULL,
            refresh TEXT CHECK (refresh IN ('auto', 'paused')),
            shake TEXT CHECK (shake IN ('on', 'off')),
            new_code INTEGER NOT NULL,
            by_name TEXT NOT NULL,
            at_ms BIGINT NOT NULL,
            applied_at BIGINT,
            outcome TEXT
        )
        """,
        "CREATE INDEX kiosk_steers_kiosk ON kiosk_steers (venue, kiosk)",
        """
        CREATE TABLE kiosk_nonces (
            venue TEXT NOT NULL,
            kiosk TEXT NOT NULL,
            nonce TEXT NOT NULL,
            signed_ms BIGINT NOT NULL,
            PRIMARY KEY (venue, kiosk, nonce)
        ){keyed}
        """,
    ]

    /// Migration 12's statements: `kiosks.announced` and the outbox's kiosk columns.
    static let kioskEventColumns = [
        "ALTER TABLE kiosks ADD COLUMN announced TEXT",
        "ALTER TABLE webhook_events ADD COLUMN kiosk TEXT",
        "ALTER TABLE webhook_events ADD COLUMN kiosk_state TEXT",
        "ALTER TABLE webhook_events ADD COLUMN problem_codes TEXT",
    ]

    /// Keeps $3 as what was last told of kiosk ($1 venue, $2 kiosk) unless it already is: a
    /// row when it is news. PostgreSQL: a second server's same change waits for this commit,
    /// then finds the row no longer matching and writes nothing.
    public static let announceKiosk = """
        UPDATE kiosks SET announced = $3 WHERE venue = $1 AND kiosk = $2 AND (announced IS NULL OR announced <> $3) RETURNING kiosk
        """

    /// Forgets a kiosk's nonces signed before $3: $1 venue, $2 kiosk, $3 ms. Found by the
    /// primary key's first columns (the kiosk's few rows).
    public static let expireKioskNonces = "DELETE FROM kiosk_nonces WHERE venue = $1 AND kiosk = $2 AND signed_ms < $3"

    /// Remembers a report's nonce unless the kiosk's was seen: $1 venue, $2 kiosk, $3 nonce, $4
    /// signed ms. Returns a row when it is new; none when it is a replay (PostgreSQL: a report
    /// of the same nonce on another server waits for this one's commit, then conflicts).
    public static let insertKioskNonce = """
        INSERT INTO kiosk_nonces (venue, kiosk, nonce, signed_ms) VALUES ($1, $2, $3, $4)
        ON CONFLICT (venue, kiosk, nonce) DO NOTHING RETURNING signed_ms
        """

    /// Stores a kiosk's latest report: $1 venue, $2 kiosk, $3 body, $4 received ms.
    public static let upsertKiosk = """
        INSERT INTO kiosks (venue, kiosk, report, received_ms) VALUES ($1, $2, $3, $4)
        ON CONFLICT (venue, kiosk) DO UPDATE SET report = excluded.report, received_ms = excluded.received_ms
        """

    /// The columns of `kiosk_steers` every ledger selects, in this order.
    public static let steerColumns = "id, venue, kiosk, refresh, shake, new_code, by_name, at_ms, applied_at, outcome"

    /// A kiosk's latest steer (applied or not): $1 venue, $2 kiosk.
    public static let selectKioskSteer = """
        SELECT \(steerColumns) FROM kiosk_steers WHERE venue = $1 AND kiosk = $2 ORDER BY id DESC LIMIT 1
        """

    /// Marks the steer the kiosk applied: $1 id, $2 applied at (Unix seconds, the kiosk's),
    /// $3 outcome; only while it is pending.
    public static let markSteerApplied = """
        UPDATE kiosk_steers SET applied_at = $2, outcome = $3 WHERE id = $1 AND applied_at IS NULL
        """

    /// A new steer: $1 venue, $2 kiosk, $3 refresh, $4 shake, $5 new code (0/1), $6 by, $7 at
    /// ms. Returns its id.
    public static let insertKioskSteer = """
        INSERT INTO kiosk_steers (venue, kiosk, refresh, shake, new_code, by_name, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
        """

    /// The kiosk's steers older than $3 (the one just given replaces them): $1 venue, $2 kiosk.
    public static let deleteOlderSteers = "DELETE FROM kiosk_steers WHERE venue = $1 AND kiosk = $2 AND id < $3"

    /// Whether the kiosk is known (a steer needs one that reported): $1 venue, $2 kiosk.
    /// PostgreSQL: the row is locked until the steer commits, so a concurrent forget waits.
    public static let selectKioskForSteer = "SELECT received_ms FROM kiosks WHERE venue = $1 AND kiosk = $2{forUpdate}"

    /// Every kiosk with its latest steer, ordered by venue and name: the report columns, then
    /// `steerColumns` (NULL when none).
    public static let selectKiosks = """
        SELECT k.venue, k.kiosk, k.report, k.received_ms, s.id, s.venue, s.kiosk, s.refresh, s.shake, s.new_code, s.by_name, s.at_ms,
               s.applied_at, s.outcome, k.announced
        FROM kiosks k LEFT JOIN kiosk_steers s ON s.venue = k.venue AND s.kiosk = k.kiosk
             AND s.id = (SELECT max(id) FROM kiosk_steers WHERE venue = k.venue AND kiosk = k.kiosk)
        """

    /// As `selectKiosks`, of one venue ($1).
    public static let selectKiosksOfVenue = selectKiosks + " WHERE k.venue = $1 ORDER BY k.venue, k.kiosk"

    /// As `selectKiosks`, of every venue.
    public static let selectAllKiosks = selectKiosks + " ORDER BY k.venue, k.kiosk"

    /// As `selectKiosks`, of one kiosk ($1 venue, $2 kiosk).
    public static let selectKiosk = selectKiosks + " WHERE k.venue = $1 AND k.kiosk = $2"

    /// Steers after id $1, oldest first, at most $2: the beacon's look.
    public static let selectSteersAfter = "SELECT id, venue, kiosk FROM kiosk_steers WHERE id > $1 ORDER BY id LIMIT $2"

    /// The newest steer's id (NULL: none).
    public static let selectLatestSteerID = "SELECT max(id) FROM kiosk_steers"

    /// Forgets a kiosk, one table each: $1 venue, $2 kiosk. The first returns a row when there was one.
    public static let deleteKiosk = "DELETE FROM kiosks WHERE venue = $1 AND kiosk = $2 RETURNING received_ms"
    public static let deleteKioskSteers = "DELETE FROM kiosk_steers WHERE venue = $1 AND kiosk = $2"
    public static let deleteKioskNonces = "DELETE FROM kiosk_nonces WHERE venue = $1 AND kiosk = $2"
}
