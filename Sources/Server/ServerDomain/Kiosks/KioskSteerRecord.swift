import SharedDomain

/// The latest steer an operator gave a kiosk, and whether the kiosk applied it: what the
/// console shows ("pause asked by mina at 14:02:01, applied 14:02:03") and what a report's
/// answer carries while it is pending. One per kiosk: a steer given while another is pending
/// is merged into it (`KioskSteerChange.merged`), under a new id.
public struct KioskSteerRecord: Sendable, Equatable {
    /// The steer.
    public var steer: KioskSteer
    /// Unix seconds the kiosk applied it (its report's `applied.at`); nil while pending.
    public var appliedAt: Int64?
    /// The daemon's answer then: `ok`, or its refusal (`paused`, `not-saved`, `unreachable`).
    public var outcome: String?

    /// A record.
    public init(steer: KioskSteer, appliedAt: Int64? = nil, outcome: String? = nil) {
        self.steer = steer
        self.appliedAt = appliedAt
        self.outcome = outcome
    }

    /// Whether the kiosk has not applied it yet.
    public var isPending: Bool { appliedAt == nil }
}

/// What an operator asks of a kiosk (`kiosks set`, the console's buttons): modes to set and
/// whether to issue a fresh code. At least one of them.
public struct KioskSteerChange: Sendable, Equatable, CustomStringConvertible {
    public var refresh: RefreshMode?
    public var shake: ShakeMode?
    public var newCode: Bool

    /// A change; `isEmpty` when it asks for nothing.
    public init(refresh: RefreshMode? = nil, shake: ShakeMode? = nil, newCode: Bool = false) {
        self.refresh = refresh
        self.shake = shake
        self.newCode = newCode
    }

    /// Whether it asks for nothing.
    public var isEmpty: Bool { refresh == nil && shake == nil && !newCode }

    /// This change on top of a steer still pending: what this one sets wins, what it leaves
    /// alone stays as the pending one asked, and a fresh code asked by either is still asked.
    public func merged(over pending: KioskSteer?) -> KioskSteerChange {
        guard let pending else { return self }
        return KioskSteerChange(refresh: refresh ?? pending.refresh, shake: shake ?? pending.shake, newCode: newCode || pending.newCode)
    }

    /// `refresh paused, shake off, new code`: the audit entry's detail.
    public var description: String {
        var parts: [String] = []
        if let refresh { parts.append("refresh \(refresh.rawValue)") }
        if let shake { parts.append("shake \(shake.rawValue)") }
        if newCode { parts.append("new code") }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
