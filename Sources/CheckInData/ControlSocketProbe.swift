import CLinux
import Glibc

/// Asks the kernel whether anyone listens on a control socket, without sending a request.
public enum ControlSocketProbe {
    /// Whether connecting to `path` is refused (ECONNREFUSED): the socket file exists but no
    /// process listens on it, which is proof its daemon is gone (killed with SIGKILL, say) even
    /// while its pid lingers as an unreaped zombie. Any other outcome (connected, no such file,
    /// permission denied) proves nothing and answers false.
    public static func refuses(_ path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        let socket = FileDescriptor(owning: fd)
        let result = address.withSocketAddress { connect(socket.rawValue, $0, $1) }
        return result != 0 && errno == ECONNREFUSED
    }
}
