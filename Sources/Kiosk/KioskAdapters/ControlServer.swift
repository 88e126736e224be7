import CLinux
import Glibc
import SharedDomain
import SharedJSON
import SharedSystem

/// The daemon's control socket: one request line in, one reply line out, then close.
///
/// Non-blocking throughout and driven by the caller's poll loop, so a client that is slow,
/// silent, or sends garbage costs one descriptor and a deadline, never the rotation.
///
/// It stays available to operators under abuse (anyone who may open the socket file can
/// connect, and a thousand idle connections once locked `ctl` out):
/// - peers are checked (SO_PEERCRED, SO_PEERGROUPS) right after accept; one that may not steer
///   gets a permission-denied reply and is closed at once, never holding a slot, and refusals
///   are logged at most once per `refusalLogIntervalMilliseconds` with a count of the rest;
/// - a request already waiting when the connection is accepted (`ctl` writes right after
///   connecting) is answered there and then, so a real client needs no slot at all;
/// - only clients that have not sent a whole line hold one of the `maximumClients` slots, for
///   at most `requestTimeoutMilliseconds`; when every slot is taken, a newcomer evicts the
///   client that has waited longest (it is told "busy"), instead of being left in the backlog;
/// - the listener is always polled (after the clients, so requests already read are answered
///   before new connections can crowd them out), and at most `acceptsPerTurn` connections are
///   taken per loop turn, so a flood never delays a rotation by more than one short turn.
public final class ControlServer {
    /// Longest request accepted, in bytes (requests are a few words).
    public static let maximumRequest = 256
    /// How long a client may take to send its request. With `maximumClients` slots, idle
    /// clients cost at most 64 slots a second without eviction; eviction does the rest.
    public static let requestTimeoutMilliseconds: Int64 = 1000
    /// Clients waiting for their request line at once; a newcomer beyond that evicts the oldest.
    public static let maximumClients = 64
    /// Connections accepted per call, so the caller's loop turns (timer, signals) keep coming.
    public static let acceptsPerTurn = 32
    /// At most one log line about refused peers per this many milliseconds.
    public static let refusalLogIntervalMilliseconds: Int64 = 5000

    private struct Client {
        var buffer: [UInt8] = []
        /// Accept order: the smallest waited longest.
        let order: UInt64
        let deadline: WallTime
        let peer: PeerCredentials
    }

    /// The socket's path.
    public let path: String
    /// The directory the socket is in, held open: the file is removed through it, and only if
    /// it is still this socket (a path swapped meanwhile must not make us remove another file).
    private let directory: TrustedDirectory
    /// The socket file's name in `directory` and its identity.
    private let name: String
    private let identity: TrustedDirectory.Identity
    private let listener: FileDescriptor
    private let ownUID: uid_t
    private let group: gid_t?
    private var clients: [Int32: Client] = [:]
    private var accepted: UInt64 = 0
    private var refusals = LogRateLimiter(intervalMilliseconds: ControlServer.refusalLogIntervalMilliseconds)
    /// Every peer turned away since this server was made, counted at once (the log is rate
    /// limited; metrics are not).
    public private(set) var refusedTotal = 0
    /// A descriptor held in reserve for running out of them (see `acceptPending`).
    private var spare = ControlServer.openSpare()

    /// Binds `path` (mode 0660, group `group` if given) in its directory, which must pass
    /// `trust` (made with mode 0755 when missing). Refuses when another daemon answers there,
    /// or when something that is not a socket has the name. Nothing is done by path: the
    /// socket is bound where nobody else can reach it and renamed into the held directory
    /// (`SocketBinding`), replacing a stale socket of a daemon that died.
    public init(path: String, group: gid_t?, trust: DirectoryTrust = DirectoryTrust()) throws(SystemError) {
        _ = try UnixSocketAddress(path)  // clients must be able to reach it by this path
        do {
            directory = try trust.open(PathName.directory(of: path), for: .publishing, creating: 0o755)
        } catch {
            throw SystemError("listen on", path: path, code: error.code, detail: error.description)
        }
        name = PathName.base(of: path)
        if ControlSocketProbe.answers(path) { throw SystemError("listen on", path: path, code: EADDRINUSE) }
        if let status = directory.status(of: name), status.st_mode & S_IFMT != S_IFSOCK {
            throw SystemError("listen on", path: path, code: EEXIST)
        }
        SocketBinding.removeStale(in: directory, for: name)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("create socket", path: path) }
        listener = FileDescriptor(owning: fd)
        identity = try SocketBinding.bind(fd, as: name, in: directory, group: group)
        self.path = path
        ownUID = getuid()
        self.group = group
    }

    /// Whether clients still reach this socket by its path: the file in the held directory is
    /// this socket, and the path still leads to that directory (`trust` re-checks it). False
    /// when someone removed or replaced the socket, or moved, replaced or loosened its directory.
    public func isReachable(trust: DirectoryTrust = DirectoryTrust()) -> Bool {
        guard !isShutDown, let status = directory.status(of: name), TrustedDirectory.Identity(status) == identity else { return false }
        guard let current = try? trust.open(directory.path, for: .publishing) else { return false }
        return current.identity == directory.identity
    }

    /// Descriptors to poll: every client, then the listener (always: a full server makes room
    /// by evicting, so new connections never sit unseen in the backlog).
    public var descriptors: [Int32] {
        clients.sorted { $0.value.order < $1.value.order }.map(\.key) + [listener.rawValue]
    }

    /// The earliest moment (monotonic time) `expire` has work: a client's deadline, or a due
    /// summary of refusals not yet logged.
    public var nextDeadline: WallTime? {
        (clients.values.map(\.deadline) + [refusals.summaryDue].compactMap { $0 }).min()
    }

    /// Handles a readable descriptor: accepts, reads, and answers complete requests with `handle`.
    /// `refused` hears about peers that were turned away, already rate limited (for the log).
    public func handleReadable(_ fd: Int32, now: WallTime, handle: (String, PeerCredentials) -> String,
                               refused: (RefusalNotice) -> Void) {
        if fd == listener.rawValue {
            acceptPending(now: now, handle: handle, refused: refused)
        } else if clients[fd] != nil {
            serve(fd, handle: handle)
        }
    }

    /// Reads what `fd` sent and answers it once a whole line (or the end) is there.
    private func serve(_ fd: Int32, handle: (String, PeerCredentials) -> String) {
        guard var client = clients[fd] else { return }
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
            finish(fd, reply: newline > Self.maximumRequest ? ControlErrorReply.text("request too long") : handle(line, client.peer))
        } else if client.buffer.count > Self.maximumRequest {
            finish(fd, reply: ControlErrorReply.text("request too long (limit \(Self.maximumRequest) bytes)"))
        } else if count <= 0 {
            // The peer closed without a newline: treat what came as the request.
            let line = String(decoding: client.buffer, as: UTF8.self)
            finish(fd, reply: client.buffer.isEmpty ? nil : handle(line, client.peer))
        } else {
            clients[fd] = client
        }
    }

    /// Answers clients whose deadline passed with a timeout error and closes them, and hands
    /// `refused` the count of refusals not logged one by one once their summary is due.
    public func expire(now: WallTime, refused: (RefusalNotice) -> Void = { _ in }) {
        for (fd, client) in clients where client.deadline <= now {
            finish(fd, reply: ControlErrorReply.text("timed out waiting for a request line"))
        }
        // Taken even when nobody listens, so a due summary never keeps the poll timeout at 0.
        if let count = refusals.summary(now: now) {
            refused(RefusalNotice(peer: nil, suppressed: count, intervalSeconds: Self.refusalLogIntervalMilliseconds / 1000))
        }
    }

    /// Closes every client and removes the socket file (once), if the file is still this
    /// socket: a socket someone replaced, or moved into the directory's place, stays.
    public func shutdown() {
        for fd in clients.keys { close(fd) }
        clients = [:]
        if !isShutDown, let status = directory.status(of: name), TrustedDirectory.Identity(status) == identity {
            _ = unlinkat(directory.descriptor, name, 0)
        }
        isShutDown = true
    }

    /// A server dropped without `shutdown()` (a daemon whose start failed after binding) takes
    /// its socket file with it, so no stale socket is left behind.
    deinit {
        shutdown()
        if spare >= 0 { close(spare) }
    }

    private var isShutDown = false

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private func acceptPending(now: WallTime, handle: (String, PeerCredentials) -> String,
                               refused: (RefusalNotice) -> Void) {
        for _ in 0..<Self.acceptsPerTurn {
            let fd = Glibc.accept(listener.rawValue, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors: the connection stays queued and the listener readable, so
                // free one (the longest-waiting idle client) rather than spin on it; with none,
                // the spare descriptor kept for this takes the connection and turns it away.
                if errno == EMFILE || errno == ENFILE {
                    if let oldest = oldestClient {
                        finish(oldest, reply: Self.busyReply)
                        continue
                    }
                    if spare >= 0 {
                        close(spare)
                        let turnedAway = Glibc.accept(listener.rawValue, nil, nil)
                        if turnedAway >= 0 { finish(turnedAway, reply: Self.busyReply) }
                        spare = Self.openSpare()
                        if turnedAway >= 0 { continue }
                    }
                }
                return  // EAGAIN: the backlog is empty
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            guard let peer = try? PeerCredentials(socket: fd) else {
                close(fd)
                continue
            }
            guard peer.isAllowed(ownUID: ownUID, group: group) else {
                refusedTotal += 1
                if let suppressed = refusals.admit(now: now) {
                    refused(RefusalNotice(peer: peer, suppressed: suppressed, intervalSeconds: Self.refusalLogIntervalMilliseconds / 1000))
                }
                Self.send(ControlErrorReply.text("permission denied: uid \(peer.uid) is not root, the daemon's user, or in its ops group",
                                     code: "permission-denied"), to: fd)
                close(fd)
                continue
            }
            accepted += 1
            clients[fd] = Client(order: accepted, deadline: WallTime(milliseconds: now.milliseconds + Self.requestTimeoutMilliseconds), peer: peer)
            serve(fd, handle: handle)
            if clients.count > Self.maximumClients, let oldest = oldestClient {
                finish(oldest, reply: Self.busyReply)
            }
        }
    }

    /// The idle client that has waited longest.
    private var oldestClient: Int32? { clients.min(by: { $0.value.order < $1.value.order })?.key }

    /// What an evicted client hears; `ControlClient` turns it into "busy, try again".
    private static let busyReply = ControlErrorReply.text(
        "busy: all \(maximumClients) control connections are taken by clients that sent no request; "
            + "this one waited longest, try again", code: "busy")

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

}
