import SharedDomain

/// At most one honoured shake per `intervalMilliseconds`: a shake is "a fresh code now", and a
/// code issued by a shake less than a second ago is that. Shakes had no limit: 400 a second
/// (a bouncing button wired to SIGUSR1, a loop of `qrcheckin shake`) each rewrote four fsynced
/// files and logged a line. A shake within the interval is coalesced into the last one:
/// answered with the code it issued, nothing written, counted, and named in the log line of
/// the next honoured shake. `refresh now` is not limited: it is an operator's deliberate
/// command, logged with its uid. Times are the core's (injected), so tests run it in
/// milliseconds; a clock set back does not lock shakes out.
public struct ShakeLimit: Equatable, Sendable {
    /// The shortest time between two honoured shakes.
    public static let intervalMilliseconds: Int64 = 1000

    /// When the last honoured shake issued its code.
    private var lastShake: WallTime?
    /// Shakes coalesced since then.
    private var coalesced = 0

    /// No shake yet.
    public init() {}

    /// Whether a shake at `now` is coalesced into the last one (and so counted).
    public mutating func coalesces(at now: WallTime) -> Bool {
        guard let lastShake else { return false }
        let elapsed = now.milliseconds - lastShake.milliseconds
        guard elapsed >= 0 && elapsed < Self.intervalMilliseconds else { return false }
        coalesced += 1
        return true
    }

    /// A shake issued a code at `now`; returns how many were coalesced into the previous one.
    public mutating func honoured(at now: WallTime) -> Int {
        defer { (lastShake, coalesced) = (now, 0) }
        return coalesced
    }
}
