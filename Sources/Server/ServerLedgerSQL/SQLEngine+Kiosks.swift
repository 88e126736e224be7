import ServerDomain
import SharedDomain

// The kiosk fleet (`KioskFleet`), written once for both SQL engines over `SQLEngine`'s
// sessions: a report is one batched write (its nonce's claim, its upsert and its steer's mark
// are one transaction: a copy sent to another server of the same PostgreSQL database at once
// waits for this commit, then is refused); the listings are reads.
extension SQLEngine {
    public func receive(_ receipt: KioskReceipt, replayWindowMilliseconds: Int64) async throws(LedgerError) -> KioskReceiptOutcome {
        try await writing { [sql] session throws(LedgerError) in try sql.receive(receipt, window: replayWindowMilliseconds, on: session) }
    }

    public func kiosks(venue: VenueID?) async throws(LedgerError) -> [KioskRecord] {
        try await reading { [sql] session throws(LedgerError) in try sql.kiosks(venue: venue, on: session) }
    }

    public func kiosk(_ key: KioskKey) async throws(LedgerError) -> KioskRecord? {
        try await reading { [sql] session throws(LedgerError) in try sql.kiosk(key, on: session) }
    }

    public func pendingSteer(for key: KioskKey) async throws(LedgerError) -> KioskSteer? {
        try await reading { [sql] session throws(LedgerError) in try sql.pendingSteer(for: key, on: session) }
    }

    public func steers(after id: Int64, limit: Int) async throws(LedgerError) -> [KioskSteerNotice] {
        try await reading { [sql] session throws(LedgerError) in try sql.steers(after: id, limit: limit, on: session) }
    }

    public func latestSteerID() async throws(LedgerError) -> Int64 {
        try await reading { [sql] session throws(LedgerError) in try sql.latestSteerID(on: session) }
    }

    public func announce(_ announcements: [KioskAnnouncement], at time: WallTime) async throws(LedgerError) -> [KioskAnnouncement] {
        try await writing { [sql] session throws(LedgerError) in
            var news: [KioskAnnouncement] = []
            for announcement in announcements where try sql.announce(announcement, at: time, on: session) { news.append(announcement) }
            return news
        }
    }
}
