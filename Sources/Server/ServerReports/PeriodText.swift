/// A retention period as people read it: `28 days`, `1 hour`, `90 minutes`.
public enum PeriodText {
    /// `seconds` in the largest unit that divides it (days, hours, else minutes).
    public static func of(_ seconds: Int64) -> String {
        let (count, unit) = seconds % 86_400 == 0 ? (seconds / 86_400, "day") : seconds % 3600 == 0 ? (seconds / 3600, "hour")
            : (seconds / 60, "minute")
        return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}
