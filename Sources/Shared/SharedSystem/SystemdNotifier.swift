import CLinux
import Glibc

/// systemd's notification protocol (sd_notify(3)): datagrams of `KEY=value` lines sent to
/// `$NOTIFY_SOCKET`. A few lines of protocol instead of linking libsystemd; without the
/// variable (not under systemd) every call does nothing.
public final class SystemdNotifier: Sendable {
    private let socket: Int32
    private let address: [UInt8]
    /// The watchdog interval systemd asked for (`$WATCHDOG_USEC`), if any, in milliseconds.
    public let watchdogMilliseconds: Int64?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC`/`WATCHDOG_PID` from `environment`.
    public init(environment: [String: String]) {
        var path = Array((environment["NOTIFY_SOCKET"] ?? "").utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        let fd = path.isEmpty ? -1 : Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        socket = fd
        address = path
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        watchdogMilliseconds = pidMatches ? environment["WATCHDOG_USEC"].flatMap { Int64($0) }.map { $0 / 1000 } : nil
    }

    /// Whether a notification socket was given.
    public var isEnabled: Bool { socket >= 0 }

    /// Sends `state` (e.g. `READY=1\nSTATUS=…`). Failures are ignored: notification is advisory.
    public func notify(_ state: String) {
        guard socket >= 0, address.count < 108 else { return }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { $0.copyBytes(from: address) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let bytes = Array(state.utf8)
        _ = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
    }

    deinit {
        if socket >= 0 { close(socket) }
    }
}
