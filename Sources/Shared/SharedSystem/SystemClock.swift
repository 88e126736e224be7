import Glibc
import SharedDomain

/// The real wall clock: CLOCK_REALTIME.
public struct SystemClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> WallTime { read(CLOCK_REALTIME) }

    /// Sleeps until the next whole second of this clock after `now` (a display redrawn on
    /// each second: `status --watch`).
    public func sleepToNextSecond(after now: WallTime) {
        var pause = timespec(tv_sec: 0, tv_nsec: Int(1000 - (now.milliseconds % 1000)) * 1_000_000)
        nanosleep(&pause, nil)
    }
}

/// CLOCK_MONOTONIC as a `WallTime`-shaped value: for timeouts, which must not stretch or
/// shrink when someone sets the wall clock.
public struct MonotonicClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> WallTime { read(CLOCK_MONOTONIC) }
}

/// One clock_gettime(2) reading in milliseconds.
private func read(_ clock: clockid_t) -> WallTime {
    var time = timespec()
    clock_gettime(clock, &time)
    return WallTime(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
}
