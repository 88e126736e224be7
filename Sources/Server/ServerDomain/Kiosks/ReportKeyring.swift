import SharedDomain
import Synchronization

/// The venues' report keys as the server holds them: derived from its signing keys (each
/// master secret's venue key, or a venue key for its own venue) under the report label
/// (docs/TOKEN.md, "Kiosk reports"), once per venue and kept. Every configured key verifies
/// (during a secret rotation a kiosk may hold either); the answer is signed with the one that
/// verified. Bounded as `VenueKeyCache` is: only reports whose MAC verified reach a venue's
/// keys, but a made-up venue's are derived before that.
public final class ReportKeyring: Sendable {
    /// Venues kept at most.
    static let limit = 4096

    private let sources: [SigningKeySource]
    private let authenticator: any MessageAuthenticator
    private let cache = Mutex<[VenueID: [ReportAuthenticator]]>([:])

    /// The keyring of `sources` (the server's, in their configured order).
    public init(sources: [SigningKeySource], authenticator: any MessageAuthenticator) {
        self.sources = sources
        self.authenticator = authenticator
    }

    /// The report keys of `venue`, one per key source that can derive it (a venue key of
    /// another venue cannot); empty when none can.
    public func authenticators(for venue: VenueID) -> [ReportAuthenticator] {
        if let found = cache.withLock({ $0[venue] }) { return found }
        let made = sources.compactMap { source -> ReportAuthenticator? in
            guard let key = try? ReportKey(from: source, venue: venue, authenticator: authenticator) else { return nil }
            return ReportAuthenticator(key: key, authenticator: authenticator)
        }
        cache.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
            cache[venue] = made
        }
        return made
    }
}
