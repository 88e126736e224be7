import CLinux
import Glibc

/// A filesystem path as a `sockaddr_un`, checked against the kernel's 107-byte limit.
public struct UnixSocketAddress {
    private var address = sockaddr_un()

    public init(_ path: String) throws(SystemError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemError("use socket path", path: path, code: ENAMETOOLONG)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
