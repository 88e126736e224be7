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

/// CLOCK_MONOTONIC as a `WallTime`-shaped value: for timeouts, which must not stretch or
/// shrink when someone sets the wall clock.
public struct MonotonicClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> WallTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return WallTime(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
