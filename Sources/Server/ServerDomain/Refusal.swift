import SharedDomain

/// Why the server turned a scan or a typed safe number away. The raw values are the words
/// metrics, logs and the refusal log use.
public enum RefusalReason: String, CaseIterable, Sendable {
    /// Not a check-in code of this format (or a venue id that cannot be one).
    case malformed
    /// A token of a format version this server does not know.
    case unknownVersion = "unknown-version"
    /// The signature does not match: altered, forged, another secret or period.
    case badMAC = "bad-mac"
    /// Genuine but over: scan the code on the screen again.
    case expired
    /// Genuine but not started: the kiosk's clock is ahead of the server's.
    case notYetValid = "not-yet-valid"
    /// No venue of that id is served here (no key serves it, or it is not configured).
    case unknownVenue = "unknown-venue"
    /// A good code from a phone without the server's cookie, past the new-device budgets of
    /// its network, its code or its venue (`NewDeviceLimits`): wait, or ask staff.
    case tooManyNewDevices = "too-many-new-devices"
    /// A good code at a venue holding its capacity (`capacity.VENUE`): wait until someone leaves.
    case full

    /// The server's reason for a verifier's rejection. `wrong-venue` means no key here serves
    /// the venue the URL names, and `no-venue` cannot happen (the path always names one).
    public init(_ rejection: CheckInRejection) {
        switch rejection {
        case .malformed, .noVenue: self = .malformed
        case .unknownVersion: self = .unknownVersion
        case .wrongVenue: self = .unknownVenue
        case .badMAC: self = .badMAC
        case .expired: self = .expired
        case .notYetValid: self = .notYetValid
        }
    }
}

/// A refused scan as the ledger keeps it (for a shorter time than check-ins): no device, no
/// visitor fields, only what a venue needs to see that codes are being turned away and why.
public struct Refusal: Hashable, Sendable {
    /// The venue the scan named, when it was a valid venue id.
    public let venue: VenueID?
    /// When the server refused it.
    public let time: WallTime
    /// Why.
    public let reason: RefusalReason
    /// A scanned code or a typed safe number.
    public let method: CheckInMethod

    /// A refusal with these fields.
    public init(venue: VenueID?, time: WallTime, reason: RefusalReason, method: CheckInMethod) {
        self.venue = venue
        self.time = time
        self.reason = reason
        self.method = method
    }
}
