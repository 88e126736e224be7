import ServerDomain
import SharedDomain

/// The in-memory ledger's kiosks (`KioskFleet`): what the SQL ledger keeps in `kiosks`,
/// `kiosk_steers` and `kiosk_nonces`, as values inside `InMemoryLedger.State`, so a
/// transaction's copy of the state carries them (a steer and its audit entry are one).
struct InMemoryFleet {
    var kiosks: [KioskKey: KioskRecord] = [:]
    /// Per kiosk, the nonces of its reports and their signed times.
    var nonces: [KioskKey: [ReportNonce: Int64]] = [:]
    /// The id the next steer gets (ids are never reused, as the databases' identities).
    var nextSteerID: Int64 = 1

    mutating func receive(_ receipt: KioskReceipt, window: Int64) -> KioskReceiptOutcome {
        let key = receipt.key
        var seen = nonces[key, default: [:]]
        seen = seen.filter { $0.value >= receipt.receivedAt.milliseconds - window }
        guard seen[receipt.nonce] == nil else {
            nonces[key] = seen
            return .replayed
        }
        seen[receipt.nonce] = receipt.signedAt
        nonces[key] = seen
        var steer = kiosks[key]?.steer
        if var pending = steer, pending.isPending, let applied = receipt.report.applied, applied.steer == pending.steer.id {
            pending.appliedAt = applied.at
            pending.outcome = applied.outcome
            steer = pending
        }
        kiosks[key] = KioskRecord(report: receipt.report, receivedAt: receipt.receivedAt, steer: steer, announced: kiosks[key]?.announced)
        return .stored(pending: steer.flatMap { $0.isPending ? $0.steer : nil })
    }

    func steers(after id: Int64, limit: Int) -> [KioskSteerNotice] {
        kiosks.values.compactMap { record in record.steer.map { KioskSteerNotice(id: $0.steer.id, key: record.key) } }
            .filter { $0.id > id }.sorted { $0.id < $1.id }.prefix(limit).map { $0 }
    }

    mutating func steer(_ key: KioskKey, _ change: KioskSteerChange, by: OperatorName, at time: WallTime) -> KioskSteer? {
        guard var record = kiosks[key] else { return nil }
        let pending = record.steer.flatMap { $0.isPending ? $0.steer : nil }
        let merged = change.merged(over: pending)
        let steer = KioskSteer(id: nextSteerID, refresh: merged.refresh, shake: merged.shake, newCode: merged.newCode, by: by, at: time.seconds)
        nextSteerID += 1
        record.steer = KioskSteerRecord(steer: steer)
        kiosks[key] = record
        return steer
    }

    mutating func forget(_ key: KioskKey) -> Bool {
        nonces[key] = nil
        return kiosks.removeValue(forKey: key) != nil
    }
}

extension InMemoryLedger {
    public func receive(_ receipt: KioskReceipt, replayWindowMilliseconds: Int64) async throws(LedgerError) -> KioskReceiptOutcome {
        try locked(writing: true) { state throws(LedgerError) in state.fleet.receive(receipt, window: replayWindowMilliseconds) }
    }

    public func kiosks(venue: VenueID?) async throws(LedgerError) -> [KioskRecord] {
        try locked { state throws(LedgerError) in
            state.fleet.kiosks.values.filter { venue == nil || $0.report.venue == venue }.sorted { $0.key < $1.key }
        }
    }

    public func kiosk(_ key: KioskKey) async throws(LedgerError) -> KioskRecord? {
        try locked { state throws(LedgerError) in state.fleet.kiosks[key] }
    }

    public func pendingSteer(for key: KioskKey) async throws(LedgerError) -> KioskSteer? {
        try locked { state throws(LedgerError) in state.fleet.kiosks[key]?.steer.flatMap { $0.isPending ? $0.steer : nil } }
    }

    public func steers(after id: Int64, limit: Int) async throws(LedgerError) -> [KioskSteerNotice] {
        try locked { state throws(LedgerError) in state.fleet.steers(after: id, limit: limit) }
    }

    public func latestSteerID() async throws(LedgerError) -> Int64 {
        try locked { state throws(LedgerError) in state.fleet.nextSteerID - 1 }
    }

    /// As the SQL ledgers, without the events: the in-memory ledger keeps no webhooks.
    public func announce(_ announcements: [KioskAnnouncement], at time: WallTime) async throws(LedgerError) -> [KioskAnnouncement] {
        try locked(writing: true) { state throws(LedgerError) in
            announcements.filter { announcement in
                guard let record = state.fleet.kiosks[announcement.key], record.announced != announcement.stored else { return false }
                state.fleet.kiosks[announcement.key]?.announced = announcement.stored
                return true
            }
        }
    }
}
