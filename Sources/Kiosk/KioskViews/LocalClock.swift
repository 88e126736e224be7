import SharedDomain

/// The moment a report is made and the local time zone's offset, for times people read: a mode
/// changed "at 14:02" today, "at 2026-11-29 14:02" another day. The offset comes from the shell
/// (`SystemTimeZone`), so views stay pure.
public struct LocalClock: Equatable, Sendable {
    /// Unix seconds now.
    public var now: Int64
    /// Seconds east of UTC.
    public var offsetSeconds: Int

    /// A clock.
    public init(now: Int64, offsetSeconds: Int) {
        self.now = now
        self.offsetSeconds = offsetSeconds
    }

    /// `HH:MM` of Unix second `at`, with the date in front when it is not today's.
    public func text(_ at: Int64) -> String {
        let local = at + Int64(offsetSeconds)
        let day = Self.floorDivide(local, 86_400)
        let second = local - day * 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(second / 3600)):\(two(second / 60 % 60))"
        guard day != Self.floorDivide(now + Int64(offsetSeconds), 86_400) else { return time }
        let date = CivilDate(daysSince1970: day)
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(time)"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
