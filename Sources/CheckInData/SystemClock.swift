import CheckInDomain
import Glibc

/// The real wall clock: CLOCK_REALTIME.
public struct SystemClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> WallTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallTime(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
