import CLinux
import Glibc
import SharedDomain

/// A timerfd on CLOCK_REALTIME that fires at an absolute wall-clock time, and also when
/// someone sets the clock (TFD_TIMER_CANCEL_ON_SET): rotation follows the wall clock exactly,
/// and a clock jump is noticed at once instead of at the next tick.
public struct WallTimer: ~Copyable {
    /// The descriptor to poll for readability.
    public let descriptor: FileDescriptor

    /// Creates a disarmed timer.
    public init() throws(SystemError) {
        let fd = timerfd_create(CLOCK_REALTIME, clinux_tfd_flags())
        guard fd >= 0 else { throw SystemError("create", path: "timerfd") }
        descriptor = FileDescriptor(owning: fd)
    }

    /// Arms the timer to fire at `time`, then every `intervalMilliseconds` after it (0: once).
    /// A repeating timer costs the loop one system call less per tick than re-arming.
    public func arm(at time: WallTime, intervalMilliseconds: Int64 = 0) throws(SystemError) {
        var spec = itimerspec()
        let (seconds, milliseconds) = time.milliseconds.quotientAndRemainder(dividingBy: 1000)
        spec.it_value.tv_sec = Int(seconds)
        spec.it_value.tv_nsec = Int(milliseconds) * 1_000_000
        if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }  // 0 would disarm
        spec.it_interval.tv_sec = Int(intervalMilliseconds / 1000)
        spec.it_interval.tv_nsec = Int(intervalMilliseconds % 1000) * 1_000_000
        guard timerfd_settime(descriptor.rawValue, clinux_tfd_timer_abstime() | clinux_tfd_timer_cancel_on_set(), &spec, nil) == 0 else {
            throw SystemError("arm", path: "timerfd")
        }
    }

    /// Consumes a wake-up. Returns true when it came from the clock being set, not expiry.
    @discardableResult
    public func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        let result = read(descriptor.rawValue, &expirations, MemoryLayout<UInt64>.size)
        return result < 0 && errno == ECANCELED
    }
}
