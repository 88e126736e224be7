import Glibc
import SharedDomain

/// The real wall clock: CLOCK_REALTIME.
public struct SystemClock: WallClock {
    /// Creates the clock.
    public init() {}

    public func now() -> WallTime {
        let time = read(CLOCK_REALTIME)
        return WallTime(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// Sleeps until the next whole second of this clock after `now` (a display redrawn on
    /// each second: `status --watch`).
    public func sleepToNextSecond(after now: WallTime) {
        var pause = timespec(tv_sec: 0, tv_nsec: Int(1000 - (now.milliseconds % 1000)) * 1_000_000)
        nanosleep(&pause, nil)
    }
}

/// CLOCK_MONOTONIC: for timeouts and latencies, which must not stretch or shrink when someone
/// sets the wall clock. The one reader of it in both executables.
public struct MonotonicClock: WallClock {
    /// Creates the clock.
    public init() {}

    /// The reading as a `WallTime`-shaped value, in milliseconds.
    public func now() -> WallTime { WallTime(milliseconds: nanoseconds() / 1_000_000) }

    /// The reading in nanoseconds: for latencies shorter than a millisecond.
    public func nanoseconds() -> Int64 {
        let time = read(CLOCK_MONOTONIC)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// One clock_gettime(2) reading.
private func read(_ clock: clockid_t) -> timespec {
    var time = timespec()
    clock_gettime(clock, &time)
    return time
}
