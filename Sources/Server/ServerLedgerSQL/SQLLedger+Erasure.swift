import ServerDomain
import SharedDomain

/// Erasure and retention: a subject's check-ins, their deletion with the duplicate keys they
/// hold, and the steps of a purge (each engine batches them its own way).
extension SQLLedger {
    /// The check-ins erasing `subject` would delete now, oldest first.
    public func checkIns(of subject: ErasureSubject, on session: any SQLSession) throws(LedgerError) -> [CheckIn] {
        guard let (column, value) = erasure(subject) else { return [] }
        return try session.all(column.selectCheckIns, [value]) { row throws(LedgerError) in try LedgerRows.checkIn(row, ids: ids) }
    }

    /// Deletes `subject`'s check-ins and the duplicate keys they hold; returns how many.
    public func erase(_ subject: ErasureSubject, on session: any SQLSession) throws(LedgerError) -> Int {
        guard let (column, value) = erasure(subject) else { return 0 }
        try session.run(column.deletePresence, [value])
        try eraseWebhookEvents(column, value, on: session)
        let erased = try session.run(column.deleteCheckIns, [value])
        if erased > 0 { try session.freePages() }
        return erased
    }

    /// The column an erasure of `subject` selects by and its value; nil when it names no row
    /// (an id no row can show).
    private func erasure(_ subject: ErasureSubject) -> (ErasureColumn, SQLValue)? {
        switch subject {
        case .device(let device): (.device, .text(device.rawValue))
        case .phone(let phone): (.phone, .text(phone))
        case .checkIn(let id): ids.rowID(shown: id).map { (.id, .integer($0)) }
        }
    }

    /// The rows of `table` before `cutoff`, counted (`dryRun`) or deleted; how many.
    public func delete(_ table: LedgerTable, before cutoff: WallTime, dryRun: Bool, on session: any SQLSession) throws(LedgerError) -> Int {
        let values: [SQLValue] = [.integer(cutoff.milliseconds)]
        if dryRun { return try session.count(LedgerStatements.countBefore[table]!, values) }
        return try session.run(LedgerStatements.deleteBefore[table]!, values)
    }

    /// What `request` deletes now, counted: check-ins and refusals.
    public func purgeDue(_ request: PurgeRequest, on session: any SQLSession) throws(LedgerError) -> PurgeReport {
        PurgeReport(checkIns: try delete(.checkins, before: request.checkInsBefore, dryRun: true, on: session),
                    refusals: try delete(.refusals, before: request.refusalsBefore, dryRun: true, on: session))
    }

    /// Adds the check-ins before `cutoff`, per venue and (the zone's) day, to the kept counts:
    /// a purge's first step, in the transaction that then deletes them.
    public func keepCounts(before cutoff: WallTime, dayOffsetSeconds: Int, on session: any SQLSession) throws(LedgerError) {
        try session.run(LedgerStatements.keepDailyCounts, [.integer(cutoff.milliseconds), .integer(Int64(dayOffsetSeconds) * 1000)])
    }

    /// Deletes the check-ins before `cutoff` (their counts kept first when `request` says so)
    /// and the duplicate keys they opened; returns how many check-ins.
    public func deleteCheckIns(before cutoff: WallTime, _ request: PurgeRequest, on session: any SQLSession) throws(LedgerError) -> Int {
        if request.keepsCounts { try keepCounts(before: cutoff, dayOffsetSeconds: request.dayOffsetSeconds, on: session) }
        let deleted = try delete(.checkins, before: cutoff, dryRun: false, on: session)
        _ = try delete(.presence, before: cutoff, dryRun: false, on: session)
        return deleted
    }

    /// Where one batch of at most `size` rows of `table` before `cutoff` ends: just after the
    /// time of the `size`-th oldest (rows of that very millisecond go too, so every batch
    /// progresses), or nil when fewer are left (the batch is the last, up to `cutoff`).
    public func batchBound(_ table: LedgerTable, before cutoff: WallTime, size: Int, on session: any SQLSession) throws(LedgerError) -> WallTime? {
        let time = try session.first(LedgerStatements.batchBound[table]!, [.integer(cutoff.milliseconds), .integer(Int64(size - 1))]) {
            row throws(LedgerError) in try row.integer(0)
        }
        guard let time = time ?? nil else { return nil }
        return WallTime(milliseconds: min(cutoff.milliseconds, time + 1))
    }
}
