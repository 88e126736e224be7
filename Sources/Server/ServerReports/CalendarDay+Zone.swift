import ServerDomain
import SharedDomain

extension CalendarDay {
    /// The day that holds `time` in `zone`.
    public init(containing time: WallTime, in zone: any LocalTimeZone) {
        self.init(containing: time, offsetSeconds: zone.offsetSeconds(at: time))
    }

    /// The moment this day begins in `zone` (its local midnight; the zone's offset is taken
    /// after midnight, so a change of offset that day moves the answer by at most the change).
    public func midnight(in zone: any LocalTimeZone) -> WallTime {
        let local = daysSince1970 * 86_400_000
        let guess = WallTime(milliseconds: local - Int64(zone.offsetSeconds(at: WallTime(milliseconds: local))) * 1000)
        return WallTime(milliseconds: local - Int64(zone.offsetSeconds(at: guess)) * 1000)
    }
}
