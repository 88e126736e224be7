import SharedDomain

/// A venue's presence settings (issue 32): how many may be inside, whether its codes record
/// exits from another venue, and when open visits end by themselves.
public struct VenuePresence: Equatable, Sendable {
    /// Visits open at most (`capacity.VENUE`); nil: no limit.
    public let capacity: Int?
    /// The venue whose visits this venue's codes end (`exit.VENUE-OUT = VENUE`): an exit kiosk.
    public let exitOf: VenueID?
    /// A visit without an exit ends this long after its entry (`max-stay`); nil: the duplicate time.
    public let maxStaySeconds: Int64?
    /// Every open visit ends at this local time each day (`close-at`), as minutes after midnight.
    public let closeAtMinute: Int?

    /// Settings of these values; none by default.
    public init(capacity: Int? = nil, exitOf: VenueID? = nil, maxStaySeconds: Int64? = nil, closeAtMinute: Int? = nil) {
        precondition(capacity.map { $0 >= 0 } ?? true, "a capacity must not be negative")
        precondition(closeAtMinute.map { (0..<1440).contains($0) } ?? true, "close-at is a minute of the day")
        self.capacity = capacity
        self.exitOf = exitOf
        self.maxStaySeconds = maxStaySeconds
        self.closeAtMinute = closeAtMinute
    }
}
