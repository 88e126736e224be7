import CLinux
import Glibc
import SharedSystem

/// Asks the kernel whether anyone listens on a control socket, without sending a request.
public enum ControlSocketProbe {
    /// How long a probe waits for a listener whose connection queue is full (a stuck daemon).
    public static let timeoutMilliseconds = 1000

    /// Whether connecting to `path` is refused (ECONNREFUSED): the socket file exists but no
    /// process listens on it, which is proof its daemon is gone (killed with SIGKILL, say) even
    /// while its pid lingers as an unreaped zombie. Any other outcome (connected, no such file,
    /// permission denied, a full queue) proves nothing and answers false.
    public static func refuses(_ path: String) -> Bool {
        connect(path) == ECONNREFUSED
    }

    /// Whether a process accepts connections on `path` now, or at least listens with a full
    /// queue (a stuck daemon still owns its socket).
    public static func answers(_ path: String) -> Bool {
        let result = connect(path)
        return result == 0 || result == EAGAIN
    }

    /// Connects once and hangs up: 0, or the errno of the failed connect. A Unix-socket connect
    /// blocks while the listener's backlog is full; the send timeout bounds that wait.
    private static func connect(_ path: String) -> Int32 {
        guard let address = try? UnixSocketAddress(path) else { return EINVAL }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        let socket = FileDescriptor(owning: fd)
        var limit = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        _ = setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return address.withSocketAddress { Glibc.connect(socket.rawValue, $0, $1) } == 0 ? 0 : errno
    }
}
