import CLinux
import Glibc
import SharedJSON
import SharedSystem

/// Sends one request line to the daemon's control socket and returns its reply line.
public enum ControlClient {
    /// Why a request did not get an answer.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// No daemon listens at the path.
        case notRunning(path: String, reason: String)
        /// The socket exists but this user may not connect.
        case permissionDenied(path: String)
        /// Connected, but no reply came in time or the connection broke.
        case noReply(path: String, reason: String)
        /// The daemon runs but could not take this request now (its connection queue is full,
        /// or idle clients held every slot and this one was evicted): trying again may work.
        case busy(path: String, reason: String)
        /// The process listening there is not one that may be the daemon (`ExpectedPeer`).
        case unexpectedPeer(path: String, uid: uid_t)

        public var description: String {
            switch self {
            case .notRunning(let path, let reason): "the daemon is not running (no control socket at \(path): \(reason))"
            case .busy(let path, let reason): "the daemon is busy, try again (\(path): \(reason))"
            case .permissionDenied(let path): "permission denied on \(path): run as the daemon's user, root, or a member of its ops group"
            case .noReply(let path, let reason): "no reply from \(path): \(reason)"
            case .unexpectedPeer(let path, let uid):
                "refusing the answer on \(path): the process listening there runs as \(UserDatabase.describe(uid)), "
                    + "not as root, you or the owner of its directory (the daemon's user)"
            }
        }
    }

    /// How many times a request is sent when the daemon evicts its connection to make room. An
    /// eviction means the daemon is alive and accepting, but 64 silent newcomers arrived before
    /// this request did (a flood of reconnecting idle clients, and this process held up between
    /// connect and send on a loaded machine): sending again at once gets through.
    public static let attemptsWhenEvicted = 3

    /// How long `ctl` and `shake` wait for the daemon's reply: a daemon that is writing to a
    /// slow or loaded disk can take seconds (3 s was seen to run out at load average 15); one
    /// that is hung is still reported well before a person gives up.
    public static let replyTimeoutMilliseconds: Int32 = 10_000

    /// Sends `request` and waits up to `timeoutMilliseconds` for the reply; with `peer`, only
    /// when the process listening is one it admits (nothing is sent to any other). Sent again (up
    /// to `attemptsWhenEvicted` times in all) while the daemon evicts the connection unanswered.
    public static func send(_ request: String, to path: String, peer: ExpectedPeer?, timeoutMilliseconds: Int32 = Self.replyTimeoutMilliseconds) throws(Failure) -> String {
        var attempt = 1
        while true {
            switch try sendOnce(request, to: path, peer: peer, timeoutMilliseconds: timeoutMilliseconds) {
            case .reply(let line):
                return line
            case .evicted(let reason):
                guard attempt < attemptsWhenEvicted else { throw .busy(path: path, reason: reason) }
                attempt += 1
            }
        }
    }

    /// What one connection got: the reply, or the daemon's word that it was evicted for room.
    private enum Outcome {
        case reply(String)
        case evicted(String)
    }

    private static func sendOnce(_ request: String, to path: String, peer: ExpectedPeer?,
                                 timeoutMilliseconds: Int32) throws(Failure) -> Outcome {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path)
        } catch {
            throw .notRunning(path: path, reason: error.reason)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .noReply(path: path, reason: String(cString: strerror(errno))) }
        let socket = FileDescriptor(owning: fd)
        // A Unix-socket connect blocks while the listener's backlog is full (a stuck daemon);
        // the send timeout bounds that wait too.
        var limit = timeval(tv_sec: Int(timeoutMilliseconds / 1000), tv_usec: Int(timeoutMilliseconds % 1000) * 1000)
        _ = setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSocketAddress({ connect(socket.rawValue, $0, $1) }) == 0 else {
            let code = errno
            if code == EACCES || code == EPERM { throw .permissionDenied(path: path) }
            // EAGAIN: a daemon listens, but its backlog stayed full for the whole send timeout.
            if code == EAGAIN { throw .busy(path: path, reason: "its connection queue stayed full for \(timeoutMilliseconds) ms") }
            throw .notRunning(path: path, reason: String(cString: strerror(code)))
        }
        if let peer {
            guard let credentials = try? PeerCredentials(socket: socket.rawValue) else {
                throw .noReply(path: path, reason: "cannot tell who listens there")
            }
            guard peer.admits(credentials) else { throw .unexpectedPeer(path: path, uid: credentials.uid) }
        }
        // send(MSG_NOSIGNAL), not write(2): a daemon that refuses a peer replies and closes at
        // once, and writing to it then must not kill us with SIGPIPE. If the write fails, the
        // daemon's reply (say, permission-denied) may still be waiting: read it below.
        let bytes = Array((request + "\n").utf8)
        var sent = 0
        var sendError: Int32 = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(socket.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { sendError = errno; break }
            sent += count
        }
        var reply = [UInt8]()
        while !reply.contains(UInt8(ascii: "\n")) {
            guard let ready = try? Poller.wait(readable: [socket.rawValue], timeoutMilliseconds: timeoutMilliseconds), !ready.isEmpty else {
                throw .noReply(path: path, reason: "timed out after \(timeoutMilliseconds) ms")
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(socket.rawValue, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            reply += chunk[0..<count]
        }
        guard let newline = reply.firstIndex(of: UInt8(ascii: "\n")) else {
            throw .noReply(path: path, reason: sendError != 0 ? String(cString: strerror(sendError)) : "the daemon closed the connection")
        }
        let line = String(decoding: reply[..<newline], as: UTF8.self)
        // The daemon evicted this connection to make room (see ControlServer): not an answer.
        if let value = try? JSONParser.parse(line), value["code"]?.string == "busy" {
            return .evicted(value["error"]?.string ?? "no free connection slot")
        }
        return .reply(line)
    }
}
