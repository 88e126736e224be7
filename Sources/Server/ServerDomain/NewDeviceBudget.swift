import SharedDomain
import Synchronization

/// The budgets `NewDeviceLimits` describe, kept in this process's memory (bounded: see
/// `BoundedRateTable`). Behind a load balancer each server keeps its own, so the limits there
/// are per server.
public final class NewDeviceBudget: Sendable {
    /// Why a new device was turned away.
    public enum Limit: String, Hashable, Sendable {
        /// Its network brought too many at once.
        case network
        /// Its code brought too many.
        case code
        /// Its venue took its hourly ceiling.
        case venue
    }

    /// The limits kept.
    public let limits: NewDeviceLimits
    /// Per network (nil: no limit).
    private let networks: BoundedRateTable?
    /// New devices per code: per venue, per window, for the last few windows only.
    private let codes = Mutex<[VenueID: [Int64: Int]]>([:])
    /// Per venue: when its spending is all refilled (ms).
    private let venues = Mutex<[VenueID: Int64]>([:])

    /// Budgets of `limits`, for at most `networkCapacity` networks remembered at once.
    public init(limits: NewDeviceLimits = .standard, networkCapacity: Int = 65_536) {
        self.limits = limits
        networks = limits.perNetworkBurst == 0 ? nil
            : BoundedRateTable(budget: RateBudget(burst: limits.perNetworkBurst,
                                                  intervalMilliseconds: max(1, 60_000 / Int64(max(1, limits.perNetworkPerMinute)))),
                               capacity: networkCapacity)
    }

    /// Takes one new device from every budget it counts against: its `network`, the code of
    /// `venue` at `window` (of a venue whose codes run `windowSeconds`), and the venue's
    /// `perHour` ceiling. Nil when admitted; else the limit that turned it away (nothing is
    /// taken then, except from a network that was already over).
    public func admit(network: String, venue: VenueID, window: Int64, perHour: Int, at now: WallTime) -> Limit? {
        if limits.perCode > 0, codes.withLock({ $0[venue]?[window] ?? 0 }) >= limits.perCode { return .code }
        let ceiling = perHour > 0 ? RateBudget(burst: perHour, perHour: perHour) : nil
        if let ceiling, ceiling.wait(refilledAt: venues.withLock { $0[venue] ?? now.milliseconds }, now: now.milliseconds) > 0 { return .venue }
        if let networks, !networks.admit(network, now: now.milliseconds) { return .network }
        if limits.perCode > 0 {
            codes.withLock { codes in
                codes[venue, default: [:]][window, default: 0] += 1
                // A code is accepted for a few windows (the skew) at most: older ones are forgotten.
                if codes[venue]!.count > 64 { codes[venue] = codes[venue]!.filter { $0.key > window - 64 } }
            }
        }
        if let ceiling { venues.withLock { $0[venue] = ceiling.spend(refilledAt: $0[venue] ?? now.milliseconds, now: now.milliseconds) } }
        return nil
    }
}
