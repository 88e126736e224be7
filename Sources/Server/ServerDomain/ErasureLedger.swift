import SharedDomain

/// Port: what erasure and retention read and delete. An erasure itself happens only in an
/// operator action's transaction with its audit entry (`LedgerTransaction.erase`, `Erasure`);
/// here are the preview it shows first and the retention's deletion after its entry committed.
/// Every engine implements it and passes `ErasureContract`.
public protocol ErasureLedger: Sendable {
    /// The check-ins erasing `subject` would delete now, oldest first: what an operator is
    /// shown before erasing (a visitor's check-ins within the retention: few).
    func checkIns(of subject: ErasureSubject) async throws(LedgerError) -> [CheckIn]

    /// Deletes check-ins recorded before `request.checkInsBefore` (with their device ids and
    /// visitor fields, and the duplicate keys that name their devices) and refusals before
    /// `request.refusalsBefore`, for real: the space is overwritten and handed back, not flagged.
    /// With `keepsCounts`, the deleted check-ins' counts per venue and day are added to the kept
    /// counts in the same transaction. With `dryRun`, counts what would go and changes nothing.
    func purge(_ request: PurgeRequest) async throws(LedgerError) -> PurgeReport
}

extension ErasureLedger {
    /// Deletes check-ins before `checkInsBefore` and refusals before `refusalsBefore`, keeping no
    /// counts (`purge(_:)` with a plain request).
    public func purge(checkInsBefore: WallTime, refusalsBefore: WallTime, dryRun: Bool) async throws(LedgerError) -> PurgeReport {
        try await purge(PurgeRequest(checkInsBefore: checkInsBefore, refusalsBefore: refusalsBefore, dryRun: dryRun))
    }
}
