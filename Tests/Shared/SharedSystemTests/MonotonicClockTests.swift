import Glibc
import SharedSystem
import Testing

/// The one CLOCK_MONOTONIC reader: its nanoseconds and its milliseconds are one reading, and
/// it never goes back.
@Suite struct MonotonicClockTests {
    @Test func nanosecondsNeverGoBackAndMatchTheKernelsClock() {
        let clock = MonotonicClock()
        var kernel = timespec()
        clock_gettime(CLOCK_MONOTONIC, &kernel)
        let before = Int64(kernel.tv_sec) * 1_000_000_000 + Int64(kernel.tv_nsec)
        let first = clock.nanoseconds()
        let second = clock.nanoseconds()
        #expect(before <= first && first <= second)
    }

    @Test func millisecondsAreTheNanosecondsReadingTruncated() {
        let clock = MonotonicClock()
        let before = clock.nanoseconds() / 1_000_000
        let now = clock.now().milliseconds
        let after = clock.nanoseconds() / 1_000_000
        #expect(before <= now && now <= after)
    }
}
