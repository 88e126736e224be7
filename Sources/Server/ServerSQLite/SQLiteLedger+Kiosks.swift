import ServerDomain
import ServerLedgerSQL
import SharedDomain

// The kiosk fleet on SQLite: `SQLLedger`'s statements (written once for both engines) on the
// writer (a report is one batched write) and the read connections. Synchronous underneath
// until the engines move onto `SQLEngine` (issue 38), then one extension serves both.
extension SQLiteLedger: KioskFleet {
    public func receive(_ receipt: KioskReceipt, replayWindowMilliseconds: Int64) async throws(LedgerError) -> KioskReceiptOutcome {
        try write { sql, session throws(LedgerError) in try sql.receive(receipt, window: replayWindowMilliseconds, on: session) }
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
