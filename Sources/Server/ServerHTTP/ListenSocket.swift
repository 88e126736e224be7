import Glibc
import SharedSystem

/// The listening TCP socket the server accepts on: bound here, or inherited from systemd
/// (socket activation: `sd_listen_fds`, so systemd or nginx's host may own the port). Either
/// way an owned `FileDescriptor`: closed once, by whoever holds it last (a `MicroHTTPServer`
/// hands it to libmicrohttpd, which closes it when it stops), and never left open by a
/// start that fails half way.
public enum ListenSocket {
    /// The first descriptor systemd passes (SD_LISTEN_FDS_START).
    static let firstPassed: Int32 = 3

    /// A socket bound to `address` and listening; the error names the address and errno.
    public static func bind(_ address: ListenAddress, backlog: Int32 = 1024) throws(ListenSocketError) -> FileDescriptor {
        let family = address.host.isIPv4 ? AF_INET : AF_INET6
        let created = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard created >= 0 else { throw ListenSocketError("cannot create a socket for \(address)", errno: errno) }
        let socket = FileDescriptor(owning: created)
        let descriptor = socket.rawValue
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let status: Int32
        if address.host.isIPv4 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(UInt16(address.port).bigEndian)
            withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.host.bytes[12..<16]) }
            status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var only: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(UInt16(address.port).bigEndian)
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.host.bytes) }
            status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard status == 0, listen(descriptor, backlog) == 0 else {
            throw ListenSocketError("cannot listen on \(address)", errno: errno)
        }
        return socket
    }

    /// The socket systemd passed this process, if any (`LISTEN_PID` is ours and `LISTEN_FDS`
    /// ≥ 1); the variables are removed so children do not take it for theirs. More than one
    /// socket is an error: the server listens on one. The socket is ours from here (systemd
    /// keeps its own descriptor of it, so our close never ends it for the next server).
    public static func inherited(environment: [String: String]) throws(ListenSocketError) -> FileDescriptor? {
        guard let pidText = environment["LISTEN_PID"], let pid = Int32(pidText), pid == getpid(),
              let countText = environment["LISTEN_FDS"], let count = Int(countText), count > 0 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard count == 1 else {
            throw ListenSocketError("systemd passed \(count) sockets; qrcheckin-server listens on one (one ListenStream= in the .socket unit)", errno: 0)
        }
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(firstPassed, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            throw ListenSocketError("the socket systemd passed is not a stream socket", errno: 0)
        }
        var accepting: Int32 = 0
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(firstPassed, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting == 1 else {
            throw ListenSocketError("the socket systemd passed is not listening", errno: 0)
        }
        _ = fcntl(firstPassed, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(owning: firstPassed)
    }

    /// The address a listening socket is bound to (the port the kernel chose for port 0).
    public static func boundAddress(_ socket: borrowing FileDescriptor) -> String {
        let descriptor = socket.rawValue
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return "?" }
        var text = [CChar](repeating: 0, count: 64)
        if storage.ss_family == sa_family_t(AF_INET) {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                    return "\(Self.string(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                var raw = address.pointee.sin6_addr
                inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                return "[\(Self.string(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
            }
        }
    }

    /// The text `inet_ntop` wrote into `buffer`, up to its NUL (ASCII: digits, dots, colons).
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The listening socket could not be made or taken over.
public struct ListenSocketError: Error, CustomStringConvertible {
    /// What failed, with the reason.
    public let description: String
    /// errno, when a call failed (EADDRINUSE, EACCES…); 0 otherwise.
    public let code: Int32

    init(_ what: String, errno code: Int32) {
        self.code = code
        description = code == 0 ? what : "\(what): \(String(cString: strerror(code)))"
    }
}
