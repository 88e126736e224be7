import ServerDomain
import SharedDomain

/// A zone's offsets, asked once per quarter hour instead of once per row: offsets change only
/// on quarter hours (every zone's rules do), and an export's rows come in time order.
struct ZoneOffsets {
    private let zone: any LocalTimeZone
    private var quarter: Int64 = .min
    private var offset = 0

    /// Offsets of `zone`, none asked yet.
    init(_ zone: any LocalTimeZone) {
        self.zone = zone
    }

    /// Seconds east of UTC at `time`.
    mutating func offsetSeconds(at time: WallTime) -> Int {
        let current = CheckInTally.quarter(of: time).milliseconds
        if current != quarter {
            quarter = current
            offset = zone.offsetSeconds(at: time)
        }
        return offset
    }
}
