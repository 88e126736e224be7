import CheckInDomain
import CheckInJSON
import CLinux
import Glibc

/// The daemon's control socket: one request line in, one reply line out, then close.
///
/// Non-blocking throughout and driven by the caller's poll loop, so a client that is slow,
/// silent, or sends garbage costs one descriptor and a deadline, never the rotation. Peers are
/// checked with SO_PEERCRED before their request is read.
public final class ControlServer {
    /// Longest request accepted, in bytes (requests are a few words).
    public static let maximumRequest = 256
    /// How long a client may take to send its request.
    public static let requestTimeoutMilliseconds: Int64 = 2000
    /// Connections served at once; more wait in the listen backlog.
    public static let maximumClients = 16

    private struct Client {
        var buffer: [UInt8] = []
        let deadline: WallTime
        let peer: PeerCredentials
    }

    /// The socket's path.
    public let path: String
    private let listener: FileDescriptor
    private let ownUID: uid_t
    private let group: gid_t?
    private var clients: [Int32: Client] = [:]

    /// Binds `path` (mode 0660, group `group` if given). Refuses when another daemon answers there.
    public init(path: String, group: gid_t?) throws(SystemError) {
        let address = try UnixSocketAddress(path)
        if Self.isAnswering(address) { throw SystemError("listen on", path: path, code: EADDRINUSE) }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw SystemError("listen on", path: path, code: EEXIST) }
            unlink(path)  // a stale socket from a daemon that died
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("create socket", path: path) }
        listener = FileDescriptor(owning: fd)
        // Bind with a tight umask so the socket is never briefly open to everyone.
        let oldMask = umask(0o117)
        let bound = address.withSocketAddress { bind(fd, $0, $1) }
        umask(oldMask)
        guard bound == 0 else { throw SystemError("bind", path: path) }
        if let group, chown(path, uid_t.max, group) != 0 { throw SystemError("set the group of", path: path) }
        guard chmod(path, 0o660) == 0 else { throw SystemError("set the mode of", path: path) }
        guard listen(fd, 16) == 0 else { throw SystemError("listen on", path: path) }
        self.path = path
        ownUID = getuid()
        self.group = group
    }

    /// Descriptors to poll: every client, and the listener while there is room for another
    /// (a full server leaves new connections in the backlog instead of spinning on them).
    public var descriptors: [Int32] {
        (clients.count < Self.maximumClients ? [listener.rawValue] : []) + clients.keys
    }

    /// The earliest client deadline (monotonic time), if any client is waiting.
    public var nextDeadline: WallTime? { clients.values.map(\.deadline).min() }

    /// Handles a readable descriptor: accepts, reads, and answers complete requests with `handle`.
    /// `refused` hears about peers that were turned away (for the log).
    public func handleReadable(_ fd: Int32, now: WallTime, handle: (String, PeerCredentials) -> String,
                               refused: (PeerCredentials) -> Void) {
        if fd == listener.rawValue {
            accept(now: now, refused: refused)
        } else if var client = clients[fd] {
            var chunk = [UInt8](repeating: 0, count: Self.maximumRequest + 1)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            if count < 0 {
                // The connection broke (ECONNRESET): half a request is no request.
                finish(fd, reply: nil)
                return
            }
            if count > 0 { client.buffer += chunk[0..<count] }
            if let newline = client.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: client.buffer[..<newline], as: UTF8.self)
                finish(fd, reply: newline > Self.maximumRequest ? Self.error("request too long") : handle(line, client.peer))
            } else if client.buffer.count > Self.maximumRequest {
                finish(fd, reply: Self.error("request too long (limit \(Self.maximumRequest) bytes)"))
            } else if count <= 0 {
                // The peer closed without a newline: treat what came as the request.
                let line = String(decoding: client.buffer, as: UTF8.self)
                finish(fd, reply: client.buffer.isEmpty ? nil : handle(line, client.peer))
            } else {
                clients[fd] = client
            }
        }
    }

    /// Answers clients whose deadline passed with a timeout error and closes them.
    public func expire(now: WallTime) {
        for (fd, client) in clients where client.deadline <= now {
            finish(fd, reply: Self.error("timed out waiting for a request line"))
        }
    }

    /// Closes every client and removes the socket file.
    public func shutdown() {
        for fd in clients.keys { close(fd) }
        clients = [:]
        unlink(path)
    }

    /// A one-line JSON error reply; `code` is a stable word for scripts (`bad-request`, `permission-denied`).
    public static func error(_ message: String, code: String = "bad-request") -> String {
        JSONValue.object([("ok", .bool(false)), ("code", .string(code)), ("error", .string(message))]).serialized
    }

    private func accept(now: WallTime, refused: (PeerCredentials) -> Void) {
        while clients.count < Self.maximumClients {
            let fd = Glibc.accept(listener.rawValue, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            guard let peer = try? PeerCredentials(socket: fd) else {
                close(fd)
                continue
            }
            guard peer.isAllowed(ownUID: ownUID, group: group) else {
                refused(peer)
                Self.send(Self.error("permission denied: uid \(peer.uid) is not root, the daemon's user, or in its ops group",
                                     code: "permission-denied"), to: fd)
                close(fd)
                continue
            }
            clients[fd] = Client(deadline: WallTime(milliseconds: now.milliseconds + Self.requestTimeoutMilliseconds), peer: peer)
        }
    }

    private func finish(_ fd: Int32, reply: String?) {
        if let reply { Self.send(reply, to: fd) }
        clients[fd] = nil
        close(fd)
    }

    /// Best effort: replies are far smaller than a socket buffer, and a peer that is gone or
    /// not reading loses only its own answer.
    private static func send(_ reply: String, to fd: Int32) {
        let bytes = Array((reply + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func isAnswering(_ address: UnixSocketAddress) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return address.withSocketAddress { connect(fd, $0, $1) } == 0
    }
}
