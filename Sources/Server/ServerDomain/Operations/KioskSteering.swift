import SharedDomain

/// Use case: an operator steers a kiosk (`qrcheckin-server kiosks set`, the console's Kiosks
/// page): refresh mode, shake mode, a fresh code. The steer and its audit entry (`kiosk-steer`:
/// which kiosk, what was asked) are one transaction; then the kiosk's held report is woken
/// (`SteerBell`, on this server; `SteerBeacon` on the others). The kiosk applies it through its
/// daemon's control socket, naming the operator, and its next report says so.
public struct KioskSteering: Sendable {
    /// Whose actions, on which log.
    public let trail: AuditTrail
    /// This server's held reports, when there is one (nil from a command).
    public let bell: SteerBell?

    /// Steers by `trail`'s operator; `bell` rings this server's held reports.
    public init(trail: AuditTrail, bell: SteerBell? = nil) {
        self.trail = trail
        self.bell = bell
    }

    /// Gives `key` the steer `change` asks, merged into one still pending; returns it once it
    /// and its entry are committed, or nil (nothing written, no entry) when no such kiosk has
    /// reported.
    public func run(_ key: KioskKey, _ change: KioskSteerChange) async throws(LedgerError) -> KioskSteer? {
        precondition(!change.isEmpty, "a steer asks for something")
        let name = Self.operatorName(trail.actor.name)
        let steer = try await trail.change({ transaction throws(LedgerError) in
            try transaction.steerKiosk(key, change, by: name, at: trail.clock.now())
        }, note: { steer in
            steer.map { AuditNote(.kioskSteer, subject: "kiosk \(key)", detail: "\(change) (steer \($0.id))") }
        }).value
        if steer != nil { bell?.ring(key) }
        return steer
    }

    /// The operator's name as a steer carries it to the kiosk (`OperatorName`: letters,
    /// digits, `.`, `_`, `-`, `@`, at most 64): another character becomes `-` (`uid 1000`
    /// is `uid-1000`).
    public static func operatorName(_ name: String) -> OperatorName {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            OperatorName(String(scalar)) != nil ? Character(scalar) : "-"
        }
        return OperatorName(String(allowed.prefix(OperatorName.maximumLength))) ?? OperatorName("operator")!
    }
}
