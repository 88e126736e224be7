import Glibc
import SharedSystem

/// A signal's number as a value (swift-service-lifecycle's `UnixSignal`): what a
/// `SignalSequence` delivers and a `ServiceGroup` stops on.
public struct UnixSignal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal's number (`SIGTERM`).
    public let rawValue: Int32

    /// The signal numbered `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// SIGTERM: stop (systemd's, `kill`'s default).
    public static let terminate = UnixSignal(rawValue: SIGTERM)
    /// SIGINT: Ctrl-C.
    public static let interrupt = UnixSignal(rawValue: SIGINT)
    /// SIGHUP: reload; the terminal hung up.
    public static let hangup = UnixSignal(rawValue: SIGHUP)
    /// SIGUSR1.
    public static let user1 = UnixSignal(rawValue: SIGUSR1)
    /// SIGUSR2.
    public static let user2 = UnixSignal(rawValue: SIGUSR2)

    /// The signal's name (`SIGTERM`), its number for one without a name here.
    public var description: String {
        switch rawValue {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        default: "signal \(rawValue)"
        }
    }

    /// Blocks `signals` in the calling thread, so that the kernel leaves them pending for a
    /// signalfd (`SignalSequence`) instead of running their action (for SIGTERM: ending the
    /// process). A process-wide signal goes to any thread that does not block it, so every thread
    /// must: ours (`SystemThread`) and Swift's (libdispatch's workers) block all of them, which
    /// leaves the main thread; `AsyncCommandLineTool` blocks an async command's `signals` there
    /// before the command starts.
    public static func block(_ signals: Set<UnixSignal>) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.rawValue) }
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        guard result == 0 else { throw SystemError("block", path: "signals", code: result) }
    }
}
