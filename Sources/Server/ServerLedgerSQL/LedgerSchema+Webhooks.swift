/// Issue 40's webhooks: the endpoints, the outbox (one row per event and endpoint, written in
/// the transaction of the check-in, exit or refusal it reports) and the delivery log.
///
/// `webhook_endpoints.events` is a set of `WebhookEventType` bits; `venues` is `,A,B,` (empty:
/// every venue), so the outbox's inserts select their endpoints with one `&` and one `LIKE`
/// (venue ids hold only 0-9, A-Z, '-' and '.': no LIKE wildcard). With no endpoint the inserts
/// read one empty table and write nothing: a check-in costs what it did.
extension LedgerSchema {
    /// Migration 9 (issue 40's number; 8 is issue 39's kiosks). Two indexes: the due events
    /// (the claims) and the check-in's (an erasure; migration 14 dropped it, as every event paid
    /// for it); per-endpoint reads and removals are operators' and rare, and attempts are found
    /// by time (the log, the purge). Every index is a page more in each new ledger.
    public static let webhooksMigration = Migration(version: 9, name: "webhooks: endpoints, outbox, delivery log", statements: [
        """
        CREATE TABLE webhook_endpoints (
            name TEXT NOT NULL PRIMARY KEY,
            url TEXT NOT NULL,
            secret TEXT NOT NULL,
            events BIGINT NOT NULL,
            venues TEXT NOT NULL,
            personal INTEGER NOT NULL,
            disabled_ms BIGINT,
            disabled_reason TEXT,
            created_ms BIGINT NOT NULL
        ){keyed}
        """,
        """
        CREATE TABLE webhook_events (
            id {id},
            endpoint TEXT NOT NULL,
            type TEXT NOT NULL,
            at_ms BIGINT NOT NULL,
            venue TEXT,
            checkin BIGINT,
            method TEXT,
            exit_kind TEXT,
            stay_ms BIGINT,
            occupancy BIGINT,
            reason TEXT,
            visitor_name TEXT,
            visitor_phone TEXT,
            state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
            attempts INTEGER NOT NULL,
            next_ms BIGINT NOT NULL,
            lease_ms BIGINT,
            done_ms BIGINT
        )
        """,
        "CREATE INDEX webhook_events_due ON webhook_events (next_ms) WHERE state = 'pending'",
        "CREATE INDEX webhook_events_checkin ON webhook_events (checkin) WHERE checkin IS NOT NULL",
        """
        CREATE TABLE webhook_attempts (
            id {id},
            event BIGINT NOT NULL,
            endpoint TEXT NOT NULL,
            at_ms BIGINT NOT NULL,
            status INTEGER,
            duration_ms BIGINT NOT NULL,
            answer TEXT NOT NULL
        )
        """,
        "CREATE INDEX webhook_attempts_at ON webhook_attempts (at_ms)",
    ])

    /// The columns of `webhook_endpoints`, in the order every read selects them.
    public static let webhookEndpointColumns = "name, url, secret, events, venues, personal, disabled_ms, disabled_reason, created_ms"

    /// The columns of `webhook_events`, in the order every read selects them.
    public static let webhookEventColumns = """
        id, endpoint, type, at_ms, venue, checkin, method, exit_kind, stay_ms, occupancy, reason, visitor_name, visitor_phone, state, attempts, \
        next_ms, done_ms, kiosk, kiosk_state, problem_codes
        """

    /// Endpoint $1…$9 in `webhookEndpointColumns`' order, unless the name is taken: a row then.
    public static let insertWebhookEndpoint = """
        INSERT INTO webhook_endpoints (\(webhookEndpointColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (name) DO NOTHING RETURNING name
        """

    public static let selectWebhookEndpoint = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints WHERE name = $1"
    public static let selectWebhookEndpoints = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints ORDER BY name"
    public static let deleteWebhookEndpoint = "DELETE FROM webhook_endpoints WHERE name = $1 RETURNING name"
    public static let deleteWebhookEventsOf = "DELETE FROM webhook_events WHERE endpoint = $1"
    public static let deleteWebhookAttemptsOf = "DELETE FROM webhook_attempts WHERE endpoint = $1"
    /// Disables endpoint $1 since $2 for reason $3, or enables it ($2 NULL).
    public static let setWebhookDisabled = """
        UPDATE webhook_endpoints SET disabled_ms = $2, disabled_reason = $3 WHERE name = $1 RETURNING name
        """
    /// A 410's disabling: only an enabled endpoint (an operator's earlier reason stands).
    public static let disableGoneWebhook = """
        UPDATE webhook_endpoints SET disabled_ms = $2, disabled_reason = $3 WHERE name = $1 AND disabled_ms IS NULL
        """
    public static let setWebhookSecret = "UPDATE webhook_endpoints SET secret = $2 WHERE name = $1 RETURNING name"

    /// What selects the endpoints that hear an event of bit $B at venue $V (`e.` columns).
    private static func hearing(bit: String, venue: String) -> String {
        "e.disabled_ms IS NULL AND (e.events & \(bit)) <> 0 AND (e.venues = '' OR e.venues LIKE '%,' || \(venue) || ',%')"
    }

    /// A check-in's events, in its transaction, after its insert: $1 time (ms), $2 venue, $3 its
    /// row id, $4 method, $5 name, $6 phone, $7 the `checkin` bit. No occupancy yet: the claim
    /// that first sends the event counts it (`claimWebhookEvents`), once for a batch, so a check-in
    /// never pays a count of the venue's open visits.
    public static let enqueueCheckInWebhooks = """
        INSERT INTO webhook_events (endpoint, type, at_ms, venue, checkin, method, visitor_name, visitor_phone, state, attempts, next_ms)
        SELECT e.name, 'checkin', $1, $2, $3, $4,
            CASE WHEN e.personal = 1 THEN $5 END, CASE WHEN e.personal = 1 THEN $6 END, 'pending', 0, $1
        FROM webhook_endpoints e WHERE \(hearing(bit: "$7", venue: "$2"))
        """

    /// One visit's exit, after its update: $1 the exit's time (ms), $2 the visit's row id, $3 the `checkout` bit.
    public static let enqueueCheckOutWebhooks = """
        INSERT INTO webhook_events (endpoint, type, at_ms, venue, checkin, method, exit_kind, stay_ms, occupancy, visitor_name, visitor_phone,
                                    state, attempts, next_ms)
        SELECT e.name, 'checkout', $1, c.venue, c.id, c.method, c.exit_kind, c.exit_ms - c.at_ms, NULL,
            CASE WHEN e.personal = 1 THEN c.visitor_name END, CASE WHEN e.personal = 1 THEN c.visitor_phone END, 'pending', 0, $1
        FROM webhook_endpoints e CROSS JOIN checkins c
        WHERE c.id = $2 AND \(hearing(bit: "$3", venue: "c.venue"))
        """

    /// The exits `endOpenVisits` is about to record (same parameters: $1 venue, $2 cutoff, $3
    /// time, $4 stay or NULL, $5 kind) and $6 the `checkout` bit; before it, so its rows are
    /// still open. Endpoints first (CROSS JOIN keeps SQLite's loop on the empty table).
    public static let enqueueEndOpenWebhooks = """
        INSERT INTO webhook_events (endpoint, type, at_ms, venue, checkin, method, exit_kind, stay_ms, occupancy, visitor_name, visitor_phone,
                                    state, attempts, next_ms)
        SELECT e.name, 'checkout', CASE WHEN CAST($4 AS BIGINT) IS NULL THEN $3 ELSE c.at_ms + $4 END, c.venue, c.id, c.method, $5,
            CASE WHEN CAST($4 AS BIGINT) IS NULL THEN $3 - c.at_ms ELSE $4 END, NULL,
            CASE WHEN e.personal = 1 THEN c.visitor_name END, CASE WHEN e.personal = 1 THEN c.visitor_phone END, 'pending', 0, $3
        FROM webhook_endpoints e CROSS JOIN checkins c
        WHERE c.venue = $1 AND c.exit_ms IS NULL AND c.at_ms < $2 AND \(hearing(bit: "$6", venue: "$1"))
        """

    /// A refusal's events, beside its insert: $1 type (`refused`, `full`), $2 time, $3 venue
    /// (NULL: heard by endpoints of every venue only), $4 method, $5 reason, $6 the type's bit.
    public static let enqueueRefusalWebhooks = """
        INSERT INTO webhook_events (endpoint, type, at_ms, venue, method, reason, state, attempts, next_ms)
        SELECT e.name, $1, $2, $3, $4, $5, 'pending', 0, $2
        FROM webhook_endpoints e
        WHERE e.disabled_ms IS NULL AND (e.events & $6) <> 0 AND (e.venues = '' OR e.venues LIKE '%,' || coalesce($3, '') || ',%')
        """

    /// A kiosk announcement's events, beside it: $1 time, $2 venue, $3 kiosk, $4 its light, $5
    /// its problems' codes (space-separated), $6 the `kiosk` bit.
    public static let enqueueKioskWebhooks = """
        INSERT INTO webhook_events (endpoint, type, at_ms, venue, kiosk, kiosk_state, problem_codes, state, attempts, next_ms)
        SELECT e.name, 'kiosk', $1, $2, $3, $4, $5, 'pending', 0, $1
        FROM webhook_endpoints e WHERE \(hearing(bit: "$6", venue: "$2"))
        """

    /// A `test` event for endpoint $1 at $2; its id.
    public static let enqueueTestWebhook = """
        INSERT INTO webhook_events (endpoint, type, at_ms, state, attempts, next_ms) VALUES ($1, 'test', $2, 'pending', 0, $2) RETURNING id
        """

    /// Claims up to $3 pending events due at $1 (ms) of enabled endpoints, leasing them until
    /// $2. PostgreSQL skips the rows another server's claim holds (`FOR UPDATE SKIP LOCKED`):
    /// two servers never wait on each other and never claim one event together; an expired
    /// lease (a server killed mid-delivery) makes the event claimable again.
    ///
    /// The claim that first sends a check-in's or an exit's event writes its `occupancy`: the
    /// venue's open visits then (kept for its retries), counted once for the whole batch in one
    /// pass over the open visits' index, instead of once per check-in in the check-in's own
    /// transaction (which cost a count of every open visit per check-in: issue 40's bench).
    public static let claimWebhookEvents = """
        WITH counts AS MATERIALIZED (SELECT venue, count(*) AS n FROM checkins{open} WHERE exit_ms IS NULL GROUP BY venue)
        UPDATE webhook_events SET lease_ms = $2,
            occupancy = CASE WHEN occupancy IS NULL AND type IN ('checkin', 'checkout')
                             THEN coalesce((SELECT n FROM counts WHERE counts.venue = webhook_events.venue), 0) ELSE occupancy END
        WHERE id IN (SELECT w.id FROM webhook_events w
                     WHERE w.state = 'pending' AND w.next_ms <= $1 AND (w.lease_ms IS NULL OR w.lease_ms <= $1)
                     AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.name = w.endpoint AND e.disabled_ms IS NULL)
                     ORDER BY w.next_ms, w.id LIMIT $3{skipLocked})
        RETURNING \(webhookEventColumns)
        """

    /// An attempt in the delivery log: $1 event, $2 endpoint, $3 time, $4 status, $5 duration, $6 answer.
    public static let insertWebhookAttempt = """
        INSERT INTO webhook_attempts (event, endpoint, at_ms, status, duration_ms, answer) VALUES ($1, $2, $3, $4, $5, $6)
        """

    /// An attempt's end for event $1: state $2, next attempt $3, done at $4 (NULL: pending).
    public static let finishWebhookAttempt = """
        UPDATE webhook_events SET state = $2, attempts = attempts + 1, next_ms = $3, lease_ms = NULL, done_ms = $4
        WHERE id = $1 AND state = 'pending'
        """

    /// Endpoint $1's failed events (or its event $2, whatever its state) due again at $3, a new schedule.
    public static let redeliverWebhooks = """
        UPDATE webhook_events SET state = 'pending', attempts = 0, next_ms = $3, lease_ms = NULL, done_ms = NULL
        WHERE endpoint = $1 AND ((CAST($2 AS BIGINT) IS NULL AND state = 'failed') OR id = $2)
        """

    /// The delivery log of endpoint $1 (NULL: every one), newest first, at most $2.
    public static let selectWebhookAttempts = """
        SELECT event, endpoint, at_ms, status, duration_ms, answer FROM webhook_attempts
        WHERE CAST($1 AS TEXT) IS NULL OR endpoint = $1 ORDER BY at_ms DESC, id DESC LIMIT $2
        """

    /// Events of endpoint $1 (NULL: every one) in state $2 (NULL: any), newest first, at most $3.
    public static let selectWebhookEvents = """
        SELECT \(webhookEventColumns) FROM webhook_events
        WHERE (CAST($1 AS TEXT) IS NULL OR endpoint = $1) AND (CAST($2 AS TEXT) IS NULL OR state = $2) ORDER BY id DESC LIMIT $3
        """

    public static let countWebhookEvents = "SELECT state, count(*) FROM webhook_events GROUP BY state"

    /// Ended events before $1 (ms).
    public static let purgeWebhookEvents = "DELETE FROM webhook_events WHERE state <> 'pending' AND done_ms < $1"
    /// Attempts before $1 (ms).
    public static let purgeWebhookAttempts = "DELETE FROM webhook_attempts WHERE at_ms < $1"
}
