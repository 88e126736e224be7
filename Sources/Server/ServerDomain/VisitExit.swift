import SharedDomain

/// How a visit's exit came to be recorded. The raw values are the words the ledger's
/// `exit_kind` column, exports and pages use.
public enum ExitKind: String, CaseIterable, Sendable {
    /// The visitor scanned an exit kiosk's code (`exit.VENUE-OUT = VENUE`).
    case kiosk
    /// The visitor pressed "check out" on the receipt.
    case receipt
    /// An operator ran `qrcheckin-server checkout`.
    case staff
    /// The server ended it (`close-at`, `max-stay`): a bound, never a real time of leaving.
    case automatic
}

/// The end of a visit: when, and how it was recorded.
public struct VisitExit: Hashable, Sendable {
    /// When the visit ended (for `automatic`: the moment the rule ended it).
    public let time: WallTime
    /// How the exit was recorded.
    public let kind: ExitKind

    /// An exit at `time`, recorded by `kind`.
    public init(time: WallTime, kind: ExitKind) {
        self.time = time
        self.kind = kind
    }
}
