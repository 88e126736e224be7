import SharedDomain

/// How many check-ins a venue had on one day, kept after the check-ins themselves were purged
/// (the `keep-counts` setting): a number, no device, no visitor.
public struct DailyCount: Hashable, Sendable {
    /// The venue.
    public let venue: VenueID
    /// The day, in the zone of the purge that kept it.
    public let day: CalendarDay
    /// Check-ins that day.
    public let count: Int

    /// A count of `count` check-ins at `venue` on `day`.
    public init(venue: VenueID, day: CalendarDay, count: Int) {
        self.venue = venue
        self.day = day
        self.count = count
    }
}
