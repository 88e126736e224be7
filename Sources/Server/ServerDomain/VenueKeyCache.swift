import SharedDomain
import Synchronization

/// Each venue's keys, derived from the master secrets once and kept: a check-in then costs one
/// HMAC for its token, not three more for the venue key's derivation (HKDF). Bounded: past
/// `limit` venues (codes of made-up venues are refused, but their keys are still derived) the
/// cache starts over, so hostile input cannot grow memory.
final class VenueKeyCache: Sendable {
    /// Venues kept at most.
    static let limit = 4096

    private let sources: [SigningKeySource]
    private let authenticator: any MessageAuthenticator
    private let cache = Mutex<[VenueID: [SigningKeySource]]>([:])

    init(sources: [SigningKeySource], authenticator: any MessageAuthenticator) {
        self.sources = sources
        self.authenticator = authenticator
    }

    /// The key sources for `venue`, in the configured order: each master secret replaced by the
    /// venue's key derived from it, venue keys as they are (so the verifier reports the same
    /// key index and the same reasons as with the master secrets themselves).
    func keys(for venue: VenueID) -> [SigningKeySource] {
        if let keys = cache.withLock({ $0[venue] }) { return keys }
        let keys = sources.map { source -> SigningKeySource in
            guard case .master(let secret) = source else { return source }
            return .venue(VenueSigningKey(deriving: secret, for: venue, authenticator: authenticator))
        }
        cache.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
            cache[venue] = keys
        }
        return keys
    }
}
