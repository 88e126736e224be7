import SharedDomain

/// How the server treats one venue's codes and visitors.
public struct VenueProfile: Equatable, Sendable {
    /// The name pages show (`Hall 1`); the venue id when none is configured.
    public let displayName: String?
    /// The venue's rotation period (its kiosks' `period`).
    public let period: RotationPeriod
    /// Windows accepted on either side of now.
    public let skew: Int
    /// The same device at the same venue within this many seconds of its check-in is that
    /// check-in again ("already checked in at 14:03"), not a new one.
    public let duplicateSeconds: Int64
    /// Visitor log fields asked once per device; none by default.
    public let visitorFields: VisitorFields
    /// New devices (phones without the server's cookie) the venue takes each hour at most (0: no limit).
    public let newDevicesPerHour: Int
    /// Presence (issue 32): capacity, exit kiosk, automatic ends.
    public let presence: VenuePresence

    /// Three hours: one visit to a restaurant, a lecture or a concert is one check-in.
    public static let standardDuplicateSeconds: Int64 = 3 * 3600
    /// A thousand an hour: twice the design venue's 500 in 20 minutes, sustained.
    public static let standardNewDevicesPerHour = 1000

    /// Period 15, skew 1, duplicates within three hours, no visitor fields.
    public static let standard = VenueProfile(displayName: nil, period: .standard, skew: CheckInCodeVerifier.defaultSkew,
                                              duplicateSeconds: standardDuplicateSeconds, visitorFields: [])

    /// A profile with these settings; `skew` within 0...`CheckInTime.maximumSkew`.
    public init(displayName: String?, period: RotationPeriod, skew: Int, duplicateSeconds: Int64, visitorFields: VisitorFields,
                newDevicesPerHour: Int = standardNewDevicesPerHour, presence: VenuePresence = VenuePresence()) {
        precondition((0...CheckInTime.maximumSkew).contains(skew), "skew out of range: \(skew)")
        precondition(duplicateSeconds >= 0, "duplicate window must not be negative")
        precondition(newDevicesPerHour >= 0, "a venue's new-device ceiling must not be negative")
        self.displayName = displayName
        self.period = period
        self.skew = skew
        self.duplicateSeconds = duplicateSeconds
        self.visitorFields = visitorFields
        self.newDevicesPerHour = newDevicesPerHour
        self.presence = presence
    }

    /// How long a visit without an exit lasts at most: `max-stay`, else the duplicate time
    /// (a visit recorded before exits existed ends then too, never inside forever).
    public var maxStaySeconds: Int64 { presence.maxStaySeconds ?? duplicateSeconds }

    /// The moment before which an open visit has ended by `maxStaySeconds`, at `now`.
    public func openSince(at now: WallTime) -> WallTime {
        WallTime(milliseconds: now.milliseconds - maxStaySeconds * 1000)
    }

    /// The rules a check-in here is admitted by at `now`.
    public func admissionRules(at now: WallTime) -> AdmissionRules {
        AdmissionRules(duplicateSeconds: duplicateSeconds, capacity: presence.capacity, openSince: openSince(at: now))
    }

    /// The name to show for `venue`.
    public func name(of venue: VenueID) -> String { displayName ?? venue.rawValue }
}

/// The venues a server serves: configured ones with their own profiles, and, when it holds a
/// master secret, every other venue the secret signs, with the default profile.
public struct VenueDirectory: Sendable {
    /// The profile of every venue not configured on its own.
    public let defaults: VenueProfile
    /// Venues configured on their own.
    public let profiles: [VenueID: VenueProfile]
    /// Whether venues without a profile are served (with `defaults`); false limits the server
    /// to `profiles`' venues.
    public let servesUnlisted: Bool

    /// A directory of `profiles`, others served with `defaults` when `servesUnlisted`.
    public init(defaults: VenueProfile = .standard, profiles: [VenueID: VenueProfile] = [:], servesUnlisted: Bool = true) {
        self.defaults = defaults
        self.profiles = profiles
        self.servesUnlisted = servesUnlisted
    }

    /// The profile of `venue`, or nil when this server does not serve it.
    /// The longest `max-stay` of any venue (listed, or by the defaults): no visit lasts longer
    /// before the server ends it.
    public var longestStaySeconds: Int64 {
        profiles.values.reduce(defaults.maxStaySeconds) { max($0, $1.maxStaySeconds) }
    }

    public func profile(for venue: VenueID) -> VenueProfile? {
        profiles[venue] ?? (servesUnlisted ? defaults : nil)
    }
}
