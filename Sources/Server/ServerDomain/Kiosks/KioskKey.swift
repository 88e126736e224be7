import SharedDomain

/// A kiosk as the server knows it: its venue and its name there (`kiosk-name`, unique per
/// venue). The key of everything the fleet keeps.
public struct KioskKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let venue: VenueID
    public let name: KioskName

    /// The kiosk `name` of `venue`.
    public init(venue: VenueID, name: KioskName) {
        self.venue = venue
        self.name = name
    }

    /// Venue first, then name: the order every listing shows.
    public static func < (lhs: KioskKey, rhs: KioskKey) -> Bool {
        (lhs.venue.rawValue, lhs.name.rawValue) < (rhs.venue.rawValue, rhs.name.rawValue)
    }

    /// `HALL-1/door-1`: how logs and audit entries name it.
    public var description: String { "\(venue)/\(name)" }
}
