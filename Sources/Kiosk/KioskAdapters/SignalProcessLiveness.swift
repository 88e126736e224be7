import Glibc
import KioskCore

/// `kill(pid, 0)` behind the `ProcessLiveness` port: no signal is sent, only existence checked.
public struct SignalProcessLiveness: ProcessLiveness {
    /// Creates a probe.
    public init() {}

    public func isAlive(pid: Int64) -> Bool {
        // pid 0 or negative would address process groups, not one process.
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        if kill(pid_t(pid), 0) == 0 { return true }
        // EPERM: it exists but belongs to another user (a kiosk watching a root daemon).
        return errno == EPERM
    }
}
