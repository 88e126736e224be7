import SharedDomain

/// Formats Unix seconds as ISO 8601 UTC (`2026-11-29T12:00:15Z`) without Foundation.
public enum UTCTime {
    /// The ISO 8601 text for `seconds` since the epoch.
    public static func iso8601(_ seconds: Int64) -> String {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let date = CivilDate(daysSince1970: days)
        let (year, month, day) = (date.year, date.month, date.day)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}
