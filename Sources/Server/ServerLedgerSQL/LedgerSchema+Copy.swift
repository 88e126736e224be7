/// PostgreSQL's copy of another ledger's history (`qrcheckin-server import`): only PostgreSQL
/// runs these.
extension LedgerSchema {
    /// Inserts $1…$8, the source's occurrence $9 (0 the first) of this check-in, unless
    /// PostgreSQL already holds more than $9 identical ones, at row id $10 (the one that shows
    /// the id the source showed) unless a row holds it: then at the identity's next; with the
    /// source's exit, $11 (ms) and $12 (its kind), or none. Returns the row id.
    public static let copyCheckIn = """
        INSERT INTO checkins (id, venue, at_ms, method, window_age, device, visitor_name, visitor_phone, operator, exit_ms, exit_kind)
        SELECT CASE WHEN EXISTS (SELECT 1 FROM checkins WHERE id = $10) THEN nextval(pg_get_serial_sequence('checkins', 'id')) ELSE $10 END,
               $1, $2, $3, $4, $5, $6, $7, $8, $11, $12
        WHERE (SELECT count(*) FROM checkins WHERE venue = $1 AND at_ms = $2 AND method = $3
               AND window_age IS NOT DISTINCT FROM $4 AND device IS NOT DISTINCT FROM $5
               AND visitor_name IS NOT DISTINCT FROM $6 AND visitor_phone IS NOT DISTINCT FROM $7
               AND operator IS NOT DISTINCT FROM $8) <= $9
        RETURNING id
        """

    /// The duplicate keys of the check-ins now here: each device's latest open check-in per
    /// venue (the one that opened its duplicate time; an exit released its key), unless a later
    /// one already holds the key.
    /// With `venue`, only that venue's ($1).
    public static func copyPresence(venue: Bool) -> String {
        """
        INSERT INTO presence (venue, device, at_ms)
        SELECT venue, device, max(at_ms) FROM checkins WHERE device IS NOT NULL AND exit_ms IS NULL\(venue ? " AND venue = $1" : "")
        GROUP BY venue, device
        ON CONFLICT (venue, device) DO UPDATE SET at_ms = excluded.at_ms WHERE presence.at_ms < excluded.at_ms
        """
    }
}
