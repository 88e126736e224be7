import CLinux
import Glibc

/// Delivers signals as readable events on a signalfd, so the event loop handles them like any
/// other input: no async-signal-safety traps, and tests can send real signals.
public struct SignalSource: ~Copyable, Sendable {
    /// The descriptor to poll for readability.
    public let descriptor: FileDescriptor

    /// Blocks `signals` for normal delivery and routes them to the returned source.
    public init(_ signals: [Int32]) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { throw SystemError("block", path: "signals") }
        let fd = signalfd(-1, &set, clinux_sfd_flags())
        guard fd >= 0 else { throw SystemError("create", path: "signalfd") }
        descriptor = FileDescriptor(owning: fd)
    }

    /// The pending signals, oldest first.
    public func drain() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while retryingOnInterrupt({ read(descriptor.rawValue, &info, MemoryLayout<signalfd_siginfo>.size) })
            == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}
