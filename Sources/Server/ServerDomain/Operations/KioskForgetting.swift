import SharedDomain

/// Use case: an operator forgets a retired kiosk (`kiosks forget`, the console, admins only):
/// its latest report, its steer and its nonces go, with a `kiosk-forget` entry in the same
/// transaction. A kiosk that reports again is listed again.
public struct KioskForgetting: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail

    /// Forgetting by `trail`'s operator.
    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Forgets `key`; false (no entry) when no such kiosk is known.
    public func run(_ key: KioskKey) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try transaction.forgetKiosk(key) },
                         note: { $0 ? AuditNote(.kioskForget, subject: "kiosk \(key)") : nil }).value
    }
}
