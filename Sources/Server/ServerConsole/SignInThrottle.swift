import ServerDomain
import Synchronization

/// Sign-in throttling, per account and per network (an IPv4 address, an IPv6 /64), with a
/// delay, never a lockout: an account may fail 10 times at once, then once every 10 seconds;
/// a network 30 times, then once every 10 seconds. Only failures spend the budgets, and a try
/// during the delay is refused without being tried or counted, so an attacker guessing an
/// admin's password gets one guess per 10 s and cannot push the admin's wait past 10 s after
/// his last guess. Budgets live in this process (`BoundedRateTable`: bounded memory a flood
/// cannot flush); with several servers each keeps its own, so N servers allow N times as many
/// guesses. Argon2id's cost (about 0.1 s and 64 MiB a try) is bounded by `gate`: at most two
/// passwords are checked at once, others are answered 503 at once.
public final class SignInThrottle: Sendable {
    let accounts: BoundedRateTable
    let networks: BoundedRateTable
    private let checking = Mutex(0)
    /// Password checks at once, at most.
    public static let concurrentChecks = 2

    /// The standard budgets.
    public init(account: RateBudget = RateBudget(burst: 10, intervalMilliseconds: 10_000),
                network: RateBudget = RateBudget(burst: 30, intervalMilliseconds: 10_000)) {
        accounts = BoundedRateTable(budget: account, capacity: 4096)
        networks = BoundedRateTable(budget: network, capacity: 16_384)
    }

    /// Milliseconds until `account` may try from `network` at `now` (0: now).
    public func wait(account: String, network: String, now: Int64) -> Int64 {
        max(accounts.wait(account, now: now), networks.wait(network, now: now))
    }

    /// A failed try of `account` from `network` at `now`.
    public func failed(account: String, network: String, now: Int64) {
        accounts.spend(account, now: now)
        networks.spend(network, now: now)
    }

    /// Runs `body` (a password check) if fewer than `concurrentChecks` run; nil when busy.
    public func gate<T>(_ body: () -> T) -> T? {
        let admitted = checking.withLock { running in
            guard running < Self.concurrentChecks else { return false }
            running += 1
            return true
        }
        guard admitted else { return nil }
        defer { checking.withLock { $0 -= 1 } }
        return body()
    }
}
