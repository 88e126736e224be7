import SharedDomain

/// One 30-second step of RFC 6238 (its counter "T": Unix seconds / 30, rounded down). An
/// account keeps the last step it signed in with; a code of that step or an earlier one is a
/// replay.
public struct TOTPStep: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Steps since the Unix epoch.
    public let number: Int64

    /// The step numbered `number` (as the ledger keeps it).
    public init(number: Int64) {
        self.number = number
    }

    /// The step `time` falls in (floor division, so a time before 1970 is a negative step).
    public init(containing time: WallTime) {
        let seconds = time.seconds
        let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: TOTP.period)
        number = remainder < 0 ? quotient - 1 : quotient
    }

    public static func < (lhs: TOTPStep, rhs: TOTPStep) -> Bool { lhs.number < rhs.number }

    public var description: String { "step \(number)" }
}
