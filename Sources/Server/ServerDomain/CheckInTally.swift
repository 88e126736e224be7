import SharedDomain

/// How many check-ins a query selected at one venue in one quarter of an hour (UTC-aligned):
/// the ledger groups, the caller adds quarters up into hours and days of any zone (every zone's
/// offset is a whole number of quarter hours), so no zone rule lives in the database.
public struct CheckInTally: Hashable, Sendable {
    /// A quarter of an hour in milliseconds: the width of a tally's bucket.
    public static let quarterMilliseconds: Int64 = 900_000

    /// The venue.
    public let venue: VenueID
    /// The start of the quarter hour (a multiple of `quarterMilliseconds` since the epoch).
    public let quarter: WallTime
    /// Check-ins in it.
    public let count: Int

    /// A tally of `count` check-ins at `venue` in the quarter hour starting at `quarter`.
    public init(venue: VenueID, quarter: WallTime, count: Int) {
        self.venue = venue
        self.quarter = quarter
        self.count = count
    }

    /// The start of the quarter hour that holds `time`.
    public static func quarter(of time: WallTime) -> WallTime {
        let (quotient, remainder) = time.milliseconds.quotientAndRemainder(dividingBy: quarterMilliseconds)
        return WallTime(milliseconds: (remainder < 0 ? quotient - 1 : quotient) * quarterMilliseconds)
    }
}
