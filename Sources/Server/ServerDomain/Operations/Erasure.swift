import SharedDomain

/// Use case: erasing one visitor on request (`erase`, the console's erase page) and the preview
/// an operator checks first. The preview hands out a visitor's days and venues: audited as
/// `erase-preview` before it is returned. The erasure and its `erase` entry are one transaction:
/// an erasure that cannot be audited does not happen.
public struct Erasure: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail

    /// Erasures by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// The check-ins erasing `subject` would delete now, oldest first, once the entry
    /// (`described`: how the operator named the visitor, never a whole phone number; how many)
    /// is committed. Also when there are none: that a phone number has no check-in is an answer.
    public func preview(_ subject: ErasureSubject, described: String) throws(LedgerError) -> [CheckIn] {
        let checkIns = try trail.ledger.checkIns(of: subject)
        try trail.record(AuditNote(.erasePreview, subject: described, rows: checkIns.count))
        return checkIns
    }

    /// Deletes `subject`'s check-ins, for real, with the entry (`described`, how many) in the
    /// same transaction; returns how many.
    public func erase(_ subject: ErasureSubject, described: String) throws(LedgerError) -> Int {
        try trail.change({ transaction throws(LedgerError) in try transaction.erase(subject) },
                         note: { AuditNote(.erase, subject: described, rows: $0) }).value
    }
}
