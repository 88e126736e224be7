/// A budget of events that refills at a steady rate: `burst` at once, then one more every
/// `intervalMilliseconds` (a generic cell rate algorithm: one number per client, no timer).
/// The state is the moment by which the client's spending is all refilled (its
/// "theoretical arrival time"); a client never seen is at full budget.
public struct RateBudget: Hashable, Sendable {
    /// Events allowed at once.
    public let burst: Int
    /// Milliseconds after which one more event is allowed.
    public let intervalMilliseconds: Int64

    /// A budget of `burst` events, one more every `intervalMilliseconds`.
    public init(burst: Int, intervalMilliseconds: Int64) {
        precondition(burst > 0 && intervalMilliseconds > 0, "a budget must allow something")
        self.burst = burst
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// A budget of `burst` events, `perHour` more each hour.
    public init(burst: Int, perHour: Int) {
        self.init(burst: burst, intervalMilliseconds: max(1, 3_600_000 / Int64(max(1, perHour))))
    }

    /// Milliseconds until one more event is allowed for a client whose spending is refilled by
    /// `refilledAt`, at `now`; 0 when it is allowed now.
    public func wait(refilledAt: Int64, now: Int64) -> Int64 {
        max(0, refilledAt - now - Int64(burst - 1) * intervalMilliseconds)
    }

    /// The client's new refill moment after one more event at `now`.
    public func spend(refilledAt: Int64, now: Int64) -> Int64 {
        max(refilledAt, now) + intervalMilliseconds
    }
}
