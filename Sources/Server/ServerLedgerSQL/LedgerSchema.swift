/// The ledger's tables, as a versioned list of migrations both SQLite and PostgreSQL apply,
/// and the statements of the one step that must be atomic (record with duplicates decided in
/// the database).
///
/// Tables: `checkins` (the visitor log: one row per check-in), `presence` (one row per venue and
/// device: the check-in that opened its current duplicate time; its primary key is what makes
/// two servers agree on a duplicate), `refusals` (refused scans, no personal data),
/// `daily_counts` (per venue and day, the number of check-ins purges deleted, when counts are
/// kept: no personal data), `ledger_keys` (random keys of this ledger: the one that turns row
/// ids into the ids check-ins show) and `schema_migrations` (which steps ran). Times are Unix
/// milliseconds (UTC); `day` is days since 1970-01-01 in the zone of the purge that counted it.
public enum LedgerSchema {
    /// The table that records applied steps; created before any migration runs.
    public static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at_ms BIGINT NOT NULL
        )
        """

    /// Every step, oldest first.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "check-ins, presence, refusals", statements: [
            """
            CREATE TABLE checkins (
                id {id},
                venue TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                method TEXT NOT NULL CHECK (method IN ('qr', 'safe-number', 'staff')),
                window_age INTEGER,
                device TEXT,
                visitor_name TEXT,
                visitor_phone TEXT,
                operator TEXT
            )
            """,
            // Every index is written by every check-in: only those a check-in or an export needs.
            // (Erasing one device and purging scan: they are rare and run in the background.)
            "CREATE INDEX checkins_at ON checkins (at_ms, id)",
            "CREATE INDEX checkins_venue_at ON checkins (venue, at_ms)",
            """
            CREATE TABLE presence (
                venue TEXT NOT NULL,
                device TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                PRIMARY KEY (venue, device)
            ){keyed}
            """,
            """
            CREATE TABLE refusals (
                id {id},
                venue TEXT,
                at_ms BIGINT NOT NULL,
                reason TEXT NOT NULL,
                method TEXT NOT NULL
            )
            """,
            "CREATE INDEX refusals_at ON refusals (at_ms)",
        ]),
        Migration(version: 2, name: "daily counts kept after purges", statements: [
            """
            CREATE TABLE daily_counts (
                venue TEXT NOT NULL,
                day BIGINT NOT NULL,
                checkins BIGINT NOT NULL,
                PRIMARY KEY (venue, day)
            )
            """,
        ]),
        // Device first. A device id starts with the time its cookie was issued (DeviceCookies),
        // so keys that lead with it put every new device's rows at one end of their B-trees:
        // a group commit of 64 new devices at 64 venues wrote ~142 pages with keys that led
        // with the venue (one insertion point per venue, in both trees) and ~19 with these
        // (measured with SQLite at 100,000 devices); `make bench` went from 13,181 to 21,430
        // check-ins a second, p99 9.30 to 6.37 ms. A venue's export scans `checkins_at`.
        Migration(version: 3, name: "device-first keys", statements: [
            """
            CREATE TABLE presence_by_device (
                venue TEXT NOT NULL,
                device TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                PRIMARY KEY (device, venue)
            ){keyed}
            """,
            "INSERT INTO presence_by_device (venue, device, at_ms) SELECT venue, device, at_ms FROM presence",
            "DROP TABLE presence",
            "ALTER TABLE presence_by_device RENAME TO presence",
            "DROP INDEX checkins_venue_at",
            "CREATE INDEX checkins_device_at ON checkins (device, at_ms)",
        ]),
        // Who did what to the visitor log (exports, erasures, overlap queries, staff entries,
        // console sign-ins): append-only, listed newest first by id, kept for `audit-retention`.
        Migration(version: 4, name: "audit log", statements: [
            """
            CREATE TABLE audit (
                id {id},
                at_ms BIGINT NOT NULL,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                subject TEXT,
                detail TEXT,
                row_count BIGINT,
                source TEXT
            )
            """,
            "CREATE INDEX audit_at ON audit (at_ms)",
        ]),
        // Receipt numbers reveal nothing (issue 30): the ids every interface shows are the row
        // ids through a keyed permutation (CheckInIDCipher), under a random key every server and
        // command on this ledger must share, so it is kept in the ledger itself, made once here.
        // The rows and their row ids stay as they are; only the numbers shown for them change.
        Migration(version: 5, name: "a key for check-in ids", statements: [
            """
            CREATE TABLE ledger_keys (
                name TEXT NOT NULL PRIMARY KEY,
                key_hex TEXT NOT NULL
            ){keyed}
            """,
        ], newKeys: ["INSERT INTO ledger_keys (name, key_hex) VALUES ('checkin-ids', $1)"]),
        // Presence (issue 32): a visit has an entry and, once known, an exit and how it was
        // recorded. Existing rows keep no exit: the server ends them by `max-stay` (by default
        // the duplicate time), never inside forever. Occupancy is counted from the rows through
        // a partial index that holds only open visits, so it equals the open visits after any
        // crash; a counter row per venue would make every check-in at a venue wait on one row
        // lock, behind the previous one's commit, on PostgreSQL. The index leads with the
        // entry time, as every other index leads with something that grows: a check-in adds
        // its entry at the index's end, one page a group commit (led by the venue, a commit of
        // check-ins at 64 venues dirtied a page per venue: about 15 % fewer check-ins/s in
        // bench-server's load; docs/BENCHMARKS.md). A venue's
        // count reads the open visits of every venue entered within its max-stay, from the
        // index alone (the venue is its second column; its third since migration 13).
        Migration(version: 6, name: "visit exits", statements: [
            "ALTER TABLE checkins ADD COLUMN exit_ms BIGINT",
            "ALTER TABLE checkins ADD COLUMN exit_kind TEXT CHECK (exit_kind IN ('kiosk', 'receipt', 'staff', 'automatic'))",
            "CREATE INDEX checkins_open ON checkins (at_ms, venue) WHERE exit_ms IS NULL",
        ]),
        // The operator console (issue 33): accounts (Argon2id hashes, never passwords) and
        // signed-in sessions (the hash of the id the browser holds, never the id), in the
        // database so several servers on one PostgreSQL share them: a sign-out on one ends
        // the session on all. Sessions are found by their key, and ended by account.
        Migration(version: 7, name: "console accounts and sessions", statements: [
            """
            CREATE TABLE console_accounts (
                name TEXT NOT NULL PRIMARY KEY,
                role TEXT NOT NULL CHECK (role IN ('steward', 'supervisor', 'admin')),
                password_hash TEXT NOT NULL,
                disabled INTEGER NOT NULL,
                created_ms BIGINT NOT NULL
            ){keyed}
            """,
            """
            CREATE TABLE console_sessions (
                id_hash TEXT NOT NULL PRIMARY KEY,
                account TEXT NOT NULL,
                created_ms BIGINT NOT NULL,
                seen_ms BIGINT NOT NULL,
                form_token TEXT NOT NULL
            ){keyed}
            """,
            "CREATE INDEX console_sessions_account ON console_sessions (account)",
        ]),
        // Kiosk reports (issue 39): each kiosk's latest report (no history), its latest steer,
        // and its reports' nonces until the replay window has passed (`LedgerSchema+Kiosks`).
        Migration(version: 8, name: "kiosks", statements: kioskTables),
        webhooksMigration,
        apiTokensMigration,
        // Sign-in through the venue's proxy and a second factor for passwords (issue 41):
        // how each account signs in (`password`, or `proxy`: the proxy's header names it and it
        // has no password); its TOTP secret sealed under a key only the server's secret derives
        // (`SealedTOTPSecret` as hex) and the step of the last code it signed in with, which a
        // sign-in advances by compare-and-set (`acceptSecondFactorStep`), so one code signs in
        // once on every server of the ledger; one row per unused recovery code, kept as a keyed
        // hash and deleted by the sign-in that uses it. Versions 8 to 10 are issues 39 and 40's.
        Migration(version: 11, name: "proxy accounts, TOTP and recovery codes", statements: [
            "ALTER TABLE console_accounts ADD COLUMN sign_in TEXT NOT NULL DEFAULT 'password' CHECK (sign_in IN ('password', 'proxy'))",
            "ALTER TABLE console_accounts ADD COLUMN totp_secret TEXT",
            "ALTER TABLE console_accounts ADD COLUMN totp_last_step BIGINT",
            """
            CREATE TABLE console_recovery_codes (
                account TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                PRIMARY KEY (account, code_hash)
            ){keyed}
            """,
        ]),
        // The `kiosk` webhook event (issues 39 and 40): what was last told of each kiosk (its
        // light and problems' codes, `KioskAnnouncement.stored`), so a change is told once by
        // whichever server sees it first; and the kiosk, its light and problems in the outbox.
        Migration(version: 12, name: "kiosk events", statements: kioskEventColumns),
        // Every venue's open visits in the index's order (issue 38): `checkins_open` was (time,
        // venue), in SQLite (time, venue, row id), so a page of every venue's open visits, in
        // the port's order (time, id), was sorted again row by row in a temporary b-tree (`inside`
        // without a venue: 1.36× the CPU of a274098's one sorted read). Led by (time, id) it holds
        // them in that order on both engines, and a venue's page walks it too, the venue a filter
        // read from the index; counts of a venue's open visits still read the index alone. The
        // time still leads: a check-in still adds its entry at the index's end (migration 6).
        Migration(version: 13, name: "open visits by time and id", statements: [
            "DROP INDEX checkins_open",
            "CREATE INDEX checkins_open ON checkins (at_ms, id, venue) WHERE exit_ms IS NULL",
        ]),
        // Cheaper rows for a check-in and its webhook event (issue 40's outbox cost). Constraints
        // SQLite checks without building a table for each row (`DeclarationEdit`): the check-in's
        // method, the exit's kind, the outbox event's state and the account's role, each a list
        // of three or more words. And no index of the outbox by check-in: each event paid for
        // it (~5,500 instructions), only an erasure read it, and an erasure already reads every
        // check-in and every attempt (no index of phones or names: a rare action scans, as the
        // presence table's device index went for a check-in's sake).
        Migration(version: 14, name: "cheaper check-in rows", statements: ["DROP INDEX IF EXISTS webhook_events_checkin"], sqliteDeclarationEdits: [
            .checkWithoutList(table: "checkins", column: "method", values: ["qr", "safe-number", "staff"]),
            .checkWithoutList(table: "checkins", column: "exit_kind", values: ["kiosk", "receipt", "staff", "automatic"]),
            .checkWithoutList(table: "webhook_events", column: "state", values: ["pending", "delivered", "failed"]),
            .checkWithoutList(table: "console_accounts", column: "role", values: ["steward", "supervisor", "admin"]),
        ]),
    ]

    /// The key of check-in ids (`CheckInIDCipher`), as hex: the row migration 5 made.
    public static let selectCheckInIDKey = "SELECT key_hex FROM ledger_keys WHERE name = 'checkin-ids'"

    /// The newest version this program knows; a database at a higher one is refused.
    public static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Step 1 of recording a check-in with a device, in the transaction that then inserts it:
    /// claims the venue and device for a check-in at $3 unless the current claim is younger
    /// than the duplicate time. Parameters: $1 venue, $2 device, $3 time (ms), $4 the duplicate
    /// time (ms). Returns a row when the claim was taken (insert the check-in), none when it is
    /// a duplicate (read it with `earlierCheckIn`). The primary key on (venue, device) makes
    /// this one atomic decision in both engines, across connections and servers: PostgreSQL
    /// locks the conflicting row until commit, SQLite has one writer at a time.
    public static let claimPresence = """
        INSERT INTO presence (venue, device, at_ms) VALUES ($1, $2, $3)
        ON CONFLICT (venue, device) DO UPDATE SET at_ms = excluded.at_ms
        WHERE presence.at_ms <= excluded.at_ms - $4
        RETURNING at_ms
        """

    /// Step 2 of recording: the check-in itself. Parameters $1…$8 are the columns of
    /// `checkInColumns` after `id`. Returns the id and `anyWebhookEndpoint`.
    public static let insertCheckIn = """
        INSERT INTO checkins (venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, \(anyWebhookEndpoint)
        """

    /// 1 when the ledger has a webhook endpoint (enabled or not), else 0: returned by a
    /// check-in's insert, read in its statement and so in its transaction, so that a check-in
    /// runs the outbox's statement (`enqueueCheckInWebhooks`) only when an endpoint might hear
    /// it (issue 40: with none, a check-in costs what it did). Never cached: an endpoint another
    /// process adds (`webhook add` on the shell) is seen by the next check-in's transaction.
    public static let anyWebhookEndpoint = "CASE WHEN EXISTS (SELECT 1 FROM webhook_endpoints) THEN 1 ELSE 0 END"

    /// A duplicate's earlier check-in: the one whose time the claim holds (found through
    /// `checkins_device_at`: device and time to the millisecond). $1 venue, $2 device.
    public static let earlierCheckIn = """
        SELECT \(checkInColumns) FROM checkins
        WHERE venue = $1 AND device = $2 AND at_ms = (SELECT at_ms FROM presence WHERE venue = $1 AND device = $2)
        ORDER BY id LIMIT 1
        """

    /// The columns of `checkins`, in the order every ledger selects them.
    /// The devices whose id begins with $1, at most $2 (`CheckInLedger.devices(prefixed:limit:)`).
    /// A scan: `substr` reads the same on both engines whatever the collation, and an erasure
    /// by a typed prefix is rare.
    public static let devicesPrefixed = """
        SELECT DISTINCT device FROM checkins WHERE device IS NOT NULL AND substr(device, 1, length($1)) = $1 LIMIT $2
        """

    public static let checkInColumns = "id, venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator, exit_ms, exit_kind"

    /// Open visits at venue $1 entered at or after $2 (ms): what a capacity is held against.
    /// Reads the partial index `checkins_open` only.
    public static let countOpenAtVenue = "SELECT count(*) FROM checkins{open} WHERE venue = $1 AND exit_ms IS NULL AND at_ms >= $2"

    /// Open visits per venue, of venue $1 or (NULL) every venue, entered at or after $2 (ms, or NULL).
    public static let countOpen = """
        SELECT venue, count(*) FROM checkins{open}
        WHERE exit_ms IS NULL AND (CAST($1 AS TEXT) IS NULL OR venue = $1) AND (CAST($2 AS BIGINT) IS NULL OR at_ms >= $2)
        GROUP BY venue
        """

    /// Visits at venue $1 meeting the interval from $2 to $3 (ms), a visit without an exit
    /// counting until $4 (now) or its entry plus $5 (the longest stay), whichever comes first
    /// (`MeetingQuery`). The entry's range walks `checkins_at`.
    public static let selectMeeting = """
        SELECT \(checkInColumns) FROM checkins
        WHERE at_ms >= $2 - $5 AND at_ms <= $3 AND venue = $1
        AND (CASE WHEN exit_ms IS NOT NULL THEN exit_ms WHEN at_ms + $5 < $4 THEN at_ms + $5 ELSE $4 END) >= $2
        ORDER BY at_ms, id
        """

    /// Ends visit $1 (a row id) at $2 (ms) by kind $3 unless it has ended. Returns its venue,
    /// device and entry when it did (release the device's duplicate key with `releaseClaim`).
    public static let endVisit = """
        UPDATE checkins SET exit_ms = $2, exit_kind = $3 WHERE id = $1 AND exit_ms IS NULL RETURNING venue, device, at_ms
        """

    /// The latest visit of device $1 at venue $2: its row id and whether it has ended (`exit_ms`).
    public static let latestVisit = """
        SELECT id, exit_ms FROM checkins WHERE device = $1 AND venue = $2 ORDER BY at_ms DESC, id DESC LIMIT 1
        """

    /// Releases the duplicate key of venue $1 and device $2 if it is the one visit $3 (ms) opened:
    /// the device's next scan starts a new visit.
    public static let releaseClaim = "DELETE FROM presence WHERE venue = $1 AND device = $2 AND at_ms = $3"

    /// Before ending open visits at venue $1 entered before $2 (ms): releases the duplicate keys they hold.
    public static let releaseClaimsOfOpen = """
        DELETE FROM presence WHERE (device, venue, at_ms) IN
        (SELECT device, venue, at_ms FROM checkins WHERE venue = $1 AND exit_ms IS NULL AND at_ms < $2 AND device IS NOT NULL)
        """

    /// Ends every open visit at venue $1 entered before $2 (ms): at $3 (ms) when $4 is NULL, else
    /// at its entry plus $4 (ms, `max-stay`); kind $5.
    public static let endOpenVisits = """
        UPDATE checkins SET exit_ms = CASE WHEN CAST($4 AS BIGINT) IS NULL THEN $3 ELSE at_ms + $4 END, exit_kind = $5
        WHERE venue = $1 AND exit_ms IS NULL AND at_ms < $2
        """

    /// A purge's first step when counts are kept, in the transaction that then deletes: adds the
    /// check-ins before $1 (ms), per venue and day, to `daily_counts`. $2 is the zone's offset
    /// in ms (a day starts at local midnight). `WHERE` keeps SQLite from reading `ON` as a join.
    public static let keepDailyCounts = """
        INSERT INTO daily_counts (venue, day, checkins)
        SELECT venue, (at_ms + $2) / 86400000, count(*) FROM checkins WHERE at_ms < $1 GROUP BY 1, 2
        ON CONFLICT (venue, day) DO UPDATE SET checkins = daily_counts.checkins + excluded.checkins
        """

    /// The kept counts, of venue $1 or (NULL) of every venue: venue, day, checkins. The CAST
    /// tells PostgreSQL the type of a parameter that may be NULL.
    public static let selectKeptCounts = "SELECT venue, day, checkins FROM daily_counts WHERE CAST($1 AS TEXT) IS NULL OR venue = $1"

    /// Appends an audit entry: $1 time (ms), $2 actor, $3 action, $4 subject, $5 detail, $6 rows,
    /// $7 source. Returns the id.
    public static let insertAudit = """
        INSERT INTO audit (at_ms, actor, action, subject, detail, row_count, source) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
        """

    /// The columns of `audit`, in the order every ledger selects them.
    public static let auditColumns = "id, at_ms, actor, action, subject, detail, row_count, source"

    /// Audit entries newest first: $1 from (ms or NULL), $2 until (ms or NULL), $3 before this id
    /// (NULL: from the newest), $4 how many at most.
    public static let selectAudit = """
        SELECT \(auditColumns) FROM audit
        WHERE (CAST($1 AS BIGINT) IS NULL OR at_ms >= $1) AND (CAST($2 AS BIGINT) IS NULL OR at_ms < $2)
        AND (CAST($3 AS BIGINT) IS NULL OR id < $3)
        ORDER BY id DESC LIMIT $4
        """

    /// The console's occupancy curve (`VisitFlowLog`): visits entered from $1 (ms, the origin)
    /// to $3 (ms), not ended before $2 (ms), counted per venue, entry bucket and exit bucket
    /// (NULL: no exit recorded, as NULL arithmetic gives), buckets of $4 ms from $1. One range of `checkins_at` (a day
    /// and the longest stay before it), grouped where the rows are: at a million check-ins a
    /// day's few thousand rows, never the table.
    public static let visitFlow = """
        SELECT venue, (at_ms - $1) / $4, (exit_ms - $1) / $4, count(*)
        FROM checkins WHERE at_ms >= $1 AND at_ms < $3 AND (exit_ms IS NULL OR exit_ms >= $2)
        GROUP BY 1, 2, 3
        """

    /// The tally's bucket of a row: its quarter hour, as milliseconds since the epoch divided by
    /// 900000 (`CheckInTally.quarterMilliseconds`). Ledgers group by `venue, \(quarterOfRow)`.
    public static let quarterOfRow = "at_ms / 900000"
}
