import SharedDomain
import Synchronization

/// Wrong safe numbers per client, limited: a safe number has only 23 bits, so guessing must
/// cost time. Each client may be wrong `tries` times in a row; after that one more try is
/// allowed every `refillSeconds` (a generic cell rate algorithm: one time per client, no timer).
public final class SafeNumberRateLimiter: Sendable {
    /// Wrong tries allowed at once.
    public let tries: Int
    /// Seconds after which one more wrong try is forgiven.
    public let refillSeconds: Int64
    /// Clients remembered at most (older, forgiven ones are forgotten first).
    public let clientLimit: Int
    private let clock: any WallClock
    /// Per client: the moment (ms) by which all its wrong tries are forgiven.
    private let forgivenAt = Mutex<[String: Int64]>([:])

    /// A limiter of `tries` wrong tries, one more each `refillSeconds`.
    public init(tries: Int = 5, refillSeconds: Int64 = 60, clientLimit: Int = 65_536, clock: any WallClock) {
        precondition(tries > 0 && refillSeconds > 0)
        self.tries = tries
        self.refillSeconds = refillSeconds
        self.clientLimit = clientLimit
        self.clock = clock
    }

    /// Nil when `client` may try now; else whole seconds until it may.
    public func wait(for client: String) -> Int64? {
        let now = clock.now().milliseconds
        let due = forgivenAt.withLock { $0[client] } ?? now
        let over = due - now - Int64(tries - 1) * refillSeconds * 1000
        return over > 0 ? (over + 999) / 1000 : nil
    }

    /// `client` typed a wrong safe number.
    public func failed(_ client: String) {
        let now = clock.now().milliseconds
        forgivenAt.withLock { table in
            table[client] = max(table[client] ?? now, now) + refillSeconds * 1000
            if table.count > clientLimit {
                table = table.filter { $0.value > now }
                if table.count > clientLimit { table.removeAll() }  // a flood of addresses: start over
            }
        }
    }
}
