import CLinux
import Glibc
import KioskCore

/// The kernel's clock synchronisation state, read with `adjtimex` in read-only mode
/// (`modes = 0`: no capability needed, nothing changed).
///
/// The clock counts as unsynchronised when the kernel sets `STA_UNSYNC` or answers
/// `TIME_ERROR`. Where the call itself is refused (`EPERM`: a seccomp filter such as systemd's
/// `ProtectClock=yes`, which denies the whole `@clock` group, reads included), the flag file
/// systemd-timesyncd touches after each synchronisation stands in; without it the state is
/// unknown, never guessed.
public struct KernelClockSync: ClockSyncSource {
    /// systemd-timesyncd's "synchronised" flag file (systemd 239 and later).
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"

    private let flagPath: String

    /// Reads the kernel; `flagPath` is the fallback consulted when the kernel cannot be asked.
    public init(flagPath: String = KernelClockSync.timesyncFlag) {
        self.flagPath = flagPath
    }

    public func read() -> ClockSync {
        var maxError = 0
        let state = clinux_clock_synchronized(&maxError)
        if state < 0 {
            // Not allowed here (or no such call): the next best witness, or nothing.
            return access(flagPath, F_OK) == 0 ? ClockSync(synchronized: true) : .unknown
        }
        return ClockSync(synchronized: state == 1, maxErrorMicroseconds: Int64(maxError))
    }
}
