import ServerDomain
import ServerLedgerSQL
import SharedDomain

// The kiosk fleet on PostgreSQL: `SQLLedger`'s statements (written once for both engines), a
// report in a transaction of its own (its nonce's claim and its upsert are one: a copy sent to
// another server of the database at once waits for this commit, then is refused).
extension PostgresLedger: KioskFleet {
    public func receive(_ receipt: KioskReceipt, replayWindowMilliseconds: Int64) async throws(LedgerError) -> KioskReceiptOutcome {
        try write { session throws(LedgerError) in try sql.receive(receipt, window: replayWindowMilliseconds, on: session) }
    }

    public func kiosks(venue: VenueID?) async throws(LedgerError) -> [KioskRecord] {
        try read { session throws(LedgerError) in try sql.kiosks(venue: venue, on: session) }
    }

    public func kiosk(_ key: KioskKey) async throws(LedgerError) -> KioskRecord? {
        try read { session throws(LedgerError) in try sql.kiosk(key, on: session) }
    }

    public func pendingSteer(for key: KioskKey) async throws(LedgerError) -> KioskSteer? {
        try read { session throws(LedgerError) in try sql.pendingSteer(for: key, on: session) }
    }

    public func steers(after id: Int64, limit: Int) async throws(LedgerError) -> [KioskSteerNotice] {
        try read { session throws(LedgerError) in try sql.steers(after: id, limit: limit, on: session) }
    }

    public func latestSteerID() async throws(LedgerError) -> Int64 {
        try read { session throws(LedgerError) in try sql.latestSteerID(on: session) }
    }
}
