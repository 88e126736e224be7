import Synchronization

/// The (account, network) pairs that signed in, each for `lifetime` ms after its latest
/// sign-in: the owner's known networks, which an attack on the account does not slow
/// (`SignInThrottle`). At most `capacity` pairs; a new one past it replaces the one that signed
/// in longest ago (only a right password adds one, so an attacker cannot flood it).
final class KnownNetworks: Sendable {
    private let pairs = Mutex<[String: Int64]>([:])
    /// Pairs kept at most.
    let capacity: Int
    /// How long after its latest sign-in a pair is known (ms).
    let lifetime: Int64

    /// An empty set of at most `capacity` pairs, each known for `lifetime` ms.
    init(capacity: Int, lifetime: Int64) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Whether `pair` signed in within `lifetime` before `now`.
    func contains(_ pair: String, now: Int64) -> Bool {
        pairs.withLock { pairs in pairs[pair].map { now - $0 < lifetime } ?? false }
    }

    /// `pair` signed in at `now`.
    func insert(_ pair: String, now: Int64) {
        pairs.withLock { pairs in
            if pairs[pair] == nil, pairs.count >= capacity, let oldest = pairs.min(by: { $0.value < $1.value })?.key {
                pairs[oldest] = nil
            }
            pairs[pair] = max(pairs[pair] ?? now, now)
        }
    }
}
