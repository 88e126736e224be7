import SharedDomain
import SharedText

/// Port: the server's time zone (its `TZ`, else /etc/localtime): the offset from UTC at a moment.
public protocol LocalTimeZone: Sendable {
    /// Seconds east of UTC in effect at `time` (32400 for Asia/Seoul).
    func offsetSeconds(at time: WallTime) -> Int
}

/// UTC, for tests and hosts without a zone.
public struct UTCTimeZone: LocalTimeZone {
    public init() {}
    public func offsetSeconds(at time: WallTime) -> Int { 0 }
}

/// A moment in the server's zone, as pages show it.
public struct LocalTime: Sendable, Equatable {
    /// `2026-11-30`.
    public let date: String
    /// `14:03`.
    public let minute: String
    /// `14:03:27`.
    public let second: String
    /// `+09:00`.
    public let offset: String
    /// Seconds east of UTC.
    public let offsetSeconds: Int

    /// `time` in `zone`.
    public init(_ time: WallTime, in zone: any LocalTimeZone) {
        offsetSeconds = zone.offsetSeconds(at: time)
        let text = UTCTime.iso8601(time.seconds + Int64(offsetSeconds))  // 2026-11-30T14:03:27Z
        date = String(text.prefix(10))
        second = String(text.dropFirst(11).prefix(8))
        minute = String(second.prefix(5))
        let magnitude = abs(offsetSeconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        offset = (offsetSeconds < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude / 60 % 60)
    }

    /// ISO 8601 with the offset, for `<time datetime>`: `2026-11-30T14:03:27+09:00`.
    public var iso8601: String { "\(date)T\(second)\(offset)" }
}
