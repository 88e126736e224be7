import SharedDomain

/// Use case: erasing one visitor on request (`erase`, the console's erase page) and the preview
/// an operator checks first. The preview hands out a visitor's days and venues: audited as
/// `erase-preview` before it is returned. The erasure and its `erase` entry are one transaction:
/// an erasure that cannot be audited does not happen.
public struct Erasure: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// Where the preview is read.
    public let ledger: any ErasureLedger

    /// Erasures by `trail`'s operator of `ledger`'s check-ins.
    public init(trail: AuditTrail, ledger: any ErasureLedger) {
        self.trail = trail
        self.ledger = ledger
    }

    /// The check-ins erasing `subject` would delete now, oldest first, once the entry
    /// (`described`: how the operator named the visitor, never a whole phone number; how many)
    /// is committed. Also when there are none: that a phone number has no check-in is an answer.
    public func preview(_ subject: ErasureSubject, described: String) async throws(LedgerError) -> [CheckIn] {
        let checkIns = try await ledger.checkIns(of: subject)
        try await trail.record(AuditNote(.erasePreview, subject: described, rows: checkIns.count))
        return checkIns
    }

    /// Deletes `subject`'s check-ins, for real, with the entry (`described`, how many) in the
    /// same transaction; returns how many.
    public func erase(_ subject: ErasureSubject, described: String) async throws(LedgerError) -> Int {
        try await trail.change({ transaction throws(LedgerError) in try transaction.erase(subject) },
                               note: { AuditNote(.erase, subject: described, rows: $0) }).value
    }
}
