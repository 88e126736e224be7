import ServerDomain
import Synchronization

/// Sign-in throttling: delays, never locks out, and never refuses the right password because
/// of someone else's wrong ones. Only failures spend budgets, and only budgets of the try's own
/// network (an IPv4 address, an IPv6 /64) refuse it, unchecked, with 429:
///
/// - the network's, all accounts: 30 failures at once, then one every 10 s (one address
///   trying many names);
/// - the network's on this account, `(account, network)`: 10 at once, then one every 10 s
///   (the owner's own typos, and anyone guessing from the owner's network);
/// - while the account is under attack (its failures from everywhere past 10 at once, then
///   one a minute), a network that has not signed in to it before, a stranger: its first try
///   is checked, then one try every 5 minutes after a failure.
///
/// Why so: the owner can be told from an attacker only by the network before the password is
/// checked, so only a network's own failures may refuse a try; an account-wide budget that
/// refuses (the design before issue 37) lets anyone keep the owner out, and one that queues
/// keeps the owner behind the attacker's guesses. The account-wide count still slows many
/// addresses: under attack, each stranger address gets a guess per 5 minutes (20 addresses:
/// about 4 guesses a minute, as the old account budget's 6), while the owner's known networks
/// keep the 10-then-one-every-10-s budget, and on a new network the owner's first try is
/// checked at once. Known networks are the ones that signed in to the account within 30 days,
/// kept in this process (`KnownNetworks`); budgets live in this process too
/// (`BoundedRateTable`: bounded memory a flood cannot flush), so N servers allow N times as
/// many guesses. Argon2id's cost (about 0.1 s and 64 MiB a try) is bounded by `gate`: at most
/// two passwords are checked at once, others are answered 503 at once.
public final class SignInThrottle: Sendable {
    let networks: BoundedRateTable
    let pairs: BoundedRateTable
    let accounts: BoundedRateTable
    let strangers: BoundedRateTable
    let known: KnownNetworks
    private let checking = Mutex(Checks())
    /// Password checks at once, at most.
    public static let concurrentChecks = 2
    /// Sign-ins waiting for a check at most; past them the form says busy. Each request was a
    /// thread of libmicrohttpd's, which bounded the checks waiting; a request is a task now,
    /// and waits (no thread does) behind the checks under way instead of being refused.
    public static let waitingChecks = 64

    private struct Checks {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// The standard budgets: per network, per (account, network), per account (the attack
    /// signal), per stranger network under attack; networks stay known for `knownFor` ms.
    public init(network: RateBudget = RateBudget(burst: 30, intervalMilliseconds: 10_000),
                pair: RateBudget = RateBudget(burst: 10, intervalMilliseconds: 10_000),
                account: RateBudget = RateBudget(burst: 10, intervalMilliseconds: 60_000),
                stranger: RateBudget = RateBudget(burst: 1, intervalMilliseconds: 300_000),
                knownFor: Int64 = 30 * 86_400_000) {
        networks = BoundedRateTable(budget: network, capacity: 16_384)
        pairs = BoundedRateTable(budget: pair, capacity: 16_384)
        accounts = BoundedRateTable(budget: account, capacity: 4096)
        strangers = BoundedRateTable(budget: stranger, capacity: 16_384)
        known = KnownNetworks(capacity: 4096, lifetime: knownFor)
    }

    /// Milliseconds until `account` may try from `network` at `now` (0: now).
    public func wait(account: String, network: String, now: Int64) -> Int64 {
        let pair = Self.pair(account, network)
        let own = max(networks.wait(network, now: now), pairs.wait(pair, now: now))
        guard underAttack(account, now: now), !known.contains(pair, now: now) else { return own }
        return max(own, strangers.wait(pair, now: now))
    }

    /// Whether `account`'s failures from everywhere are past its budget at `now`.
    public func underAttack(_ account: String, now: Int64) -> Bool {
        accounts.wait(account, now: now) > 0
    }

    /// A failed try of `account` from `network` at `now`.
    public func failed(account: String, network: String, now: Int64) {
        let pair = Self.pair(account, network)
        // Only a stranger's failure under attack spends its budget: such a try was admitted by
        // it, so the budget never runs more than one interval ahead (failures before the attack
        // would otherwise add up to hours for a network that mistyped).
        if underAttack(account, now: now), !known.contains(pair, now: now) { strangers.spend(pair, now: now) }
        networks.spend(network, now: now)
        pairs.spend(pair, now: now)
        accounts.spend(account, now: now)
    }

    /// `account` signed in from `network` at `now`: the network is known to it from now on.
    public func succeeded(account: String, network: String, now: Int64) {
        known.insert(Self.pair(account, network), now: now)
    }

    /// Runs `body` (a password check) once fewer than `concurrentChecks` run, in the order the
    /// sign-ins came; nil (busy) when `waitingChecks` already wait.
    public func gate<T>(_ body: () async -> T) async -> T? {
        let admitted: Bool? = checking.withLock { checks in
            if checks.running < Self.concurrentChecks {
                checks.running += 1
                return true
            }
            return checks.waiting.count < Self.waitingChecks ? nil : false
        }
        if admitted == false { return nil }
        if admitted == nil {
            // Handed a slot by a check that ended (`running` stays counted for us).
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = checking.withLock { checks in
                    if checks.running < Self.concurrentChecks {
                        checks.running += 1
                        return true
                    }
                    checks.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        defer {
            let next: CheckedContinuation<Void, Never>? = checking.withLock { checks in
                guard checks.waiting.isEmpty else { return checks.waiting.removeFirst() }
                checks.running -= 1
                return nil
            }
            next?.resume()
        }
        return await body()
    }

    /// One key of an account and a network (a network never holds a NUL: no name typed into
    /// the form makes another pair's key).
    static func pair(_ account: String, _ network: String) -> String { account + "\u{0}" + network }
}
