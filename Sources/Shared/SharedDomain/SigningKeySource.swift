/// Where signing keys come from: the master secret (every venue: the check-in server) or one
/// venue's key (one venue only: a kiosk, so a stolen kiosk exposes only its own venue).
public enum SigningKeySource: Sendable, Equatable {
    /// The master secret: derives the key of any venue.
    case master(MasterSecret)
    /// One venue's key: signs and verifies for that venue only.
    case venue(VenueSigningKey)

    /// The venue a venue key is bound to; nil for the master secret.
    public var boundVenue: VenueID? {
        if case .venue(let key) = self { return key.venue }
        return nil
    }

    /// The key of `venue`, derived from the master secret or checked against the venue key.
    public func key(for venue: VenueID, authenticator: any MessageAuthenticator) throws(SigningKeyError) -> VenueSigningKey {
        switch self {
        case .master(let secret):
            return VenueSigningKey(deriving: secret, for: venue, authenticator: authenticator)
        case .venue(let key):
            guard key.venue == venue else { throw SigningKeyError(serves: key.venue, requested: venue) }
            return key
        }
    }
}

/// A venue key was asked for another venue than its own.
public struct SigningKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The venue the key signs for.
    public let serves: VenueID
    /// The venue that was asked for.
    public let requested: VenueID

    /// Records the mismatch.
    public init(serves: VenueID, requested: VenueID) {
        self.serves = serves
        self.requested = requested
    }

    public var description: String {
        "the venue key serves venue \(serves) only, not \(requested): set the venue to \(serves), or use the master secret or \(requested)'s key ('qrcheckin keygen --venue \(requested) --from MASTER')"
    }
}
