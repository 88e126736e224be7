import SharedDomain

/// Which check-ins a listing, an export or a count covers. Every bound is optional.
public struct CheckInQuery: Hashable, Sendable {
    /// Only this venue's.
    public var venue: VenueID?
    /// Only those at or after this moment.
    public var from: WallTime?
    /// Only those before this moment.
    public var until: WallTime?
    /// Only this device's.
    public var device: DeviceID?
    /// At most this many (the oldest first).
    public var limit: Int?

    /// A query with these bounds; `CheckInQuery()` selects everything.
    public init(venue: VenueID? = nil, from: WallTime? = nil, until: WallTime? = nil, device: DeviceID? = nil, limit: Int? = nil) {
        self.venue = venue
        self.from = from
        self.until = until
        self.device = device
        self.limit = limit
    }

    /// Whether `checkIn` is selected (ignoring `limit`): the rule every ledger follows.
    public func matches(_ checkIn: CheckIn) -> Bool {
        (venue == nil || checkIn.venue == venue) && (from.map { checkIn.time >= $0 } ?? true)
            && (until.map { checkIn.time < $0 } ?? true) && (device == nil || checkIn.device == device)
    }
}
