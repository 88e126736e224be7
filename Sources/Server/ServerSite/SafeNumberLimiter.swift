import ServerDomain
import SharedDomain

/// Wrong safe numbers, limited fairly: a safe number has only 23 bits, so guessing must cost
/// time, but one visitor's typos must not lock out everyone behind the venue's Wi-Fi address.
///
/// A phone with the server's cookie is judged by its own record first: `tries` wrong numbers,
/// then one more a minute. Every wrong number also counts against its client network (an
/// IPv4 address, an IPv6 /64) with a budget ten times as large (one more every 6 s): phones
/// without a cookie share it, and it bounds a guesser with many cookies (each of which the
/// new-device budgets made it pay for). Both records live in `BoundedRateTable`s: memory is
/// fixed, and a flood of addresses never makes it forget a locked-out client.
public final class SafeNumberLimiter: Sendable {
    /// Wrong numbers one device may type at once.
    public let tries: Int
    private let clock: any WallClock
    private let devices: BoundedRateTable
    private let networks: BoundedRateTable

    /// A limiter of `tries` wrong numbers per device (one more a minute) and ten times as many
    /// per network (one more every 6 s), remembering `capacity` of each at most.
    public init(tries: Int = 5, capacity: Int = 65_536, clock: any WallClock) {
        precondition(tries > 0)
        self.tries = tries
        self.clock = clock
        devices = BoundedRateTable(budget: RateBudget(burst: tries, intervalMilliseconds: 60_000), capacity: capacity)
        networks = BoundedRateTable(budget: RateBudget(burst: 10 * tries, intervalMilliseconds: 6_000), capacity: capacity)
    }

    /// Nil when a try from `device` (nil: no cookie) on `network` may be made now; else whole
    /// seconds until it may.
    public func wait(device: DeviceID?, network: String) -> Int64? {
        let now = clock.now().milliseconds
        let wait = max(device.map { devices.wait($0.rawValue, now: now) } ?? 0, networks.wait(network, now: now))
        return wait > 0 ? (wait + 999) / 1000 : nil
    }

    /// A wrong number came from `device` on `network`.
    public func failed(device: DeviceID?, network: String) {
        let now = clock.now().milliseconds
        if let device { devices.spend(device.rawValue, now: now) }
        networks.spend(network, now: now)
    }
}
