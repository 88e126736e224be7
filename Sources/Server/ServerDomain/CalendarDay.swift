import SharedDomain

/// A date in some zone, as the number of days since 1970-01-01: the key of kept daily counts.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let daysSince1970: Int64

    /// The day numbered `daysSince1970`.
    public init(daysSince1970: Int64) {
        self.daysSince1970 = daysSince1970
    }

    /// The day that holds `time` in a zone `offsetSeconds` east of UTC.
    public init(containing time: WallTime, offsetSeconds: Int) {
        let local = time.milliseconds + Int64(offsetSeconds) * 1000
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: 86_400_000)
        daysSince1970 = remainder < 0 ? quotient - 1 : quotient
    }

    /// Year, month (1-12) and day (1-31), proleptic Gregorian (H. Hinnant's civil_from_days).
    public var civil: (year: Int64, month: Int64, day: Int64) {
        let date = CivilDate(daysSince1970: daysSince1970)
        return (date.year, date.month, date.day)
    }

    /// `2026-11-30`.
    public var description: String {
        let (year, month, day) = civil
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-" + two(day)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}
