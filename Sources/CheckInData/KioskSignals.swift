import CLinux
import Glibc

/// Signals delivered as readable data on a descriptor (signalfd), so one poll(2) loop handles
/// keys, files, time and signals in order, with no code running inside a signal handler.
public final class KioskSignals {
    /// The signalfd, for poll(2).
    public let descriptor: Int32

    /// Blocks `signals` for this thread and opens a signalfd for them. Call before any thread starts.
    public init(_ signals: [Int32]) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { throw SystemError("block signals for", path: "signalfd") }
        let fd = signalfd(-1, &set, clinux_sfd_flags())
        guard fd >= 0 else { throw SystemError("create", path: "signalfd") }
        descriptor = fd
    }

    /// The signals received since the last call, in order.
    public func read() -> [Int32] {
        var received = [Int32]()
        var info = signalfd_siginfo()
        while retryingOnInterrupt({ Glibc.read(descriptor, &info, MemoryLayout<signalfd_siginfo>.size) })
            == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }

    deinit {
        // The signals stay blocked: one arriving after the terminal is restored is simply ignored
        // until the process exits.
        _ = close(descriptor)
    }
}
