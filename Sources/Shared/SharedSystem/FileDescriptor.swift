import Glibc

/// An open file descriptor that closes itself: it cannot be copied, so it is closed exactly once.
/// Sendable: it is an immutable number, and only its one owner (wherever it moved) closes it.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The raw descriptor.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`.
    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Opens `path`; the descriptor is close-on-exec.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> FileDescriptor {
        let fd = retryingOnInterrupt { SharedSystem.open(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return FileDescriptor(owning: fd)
    }

    /// Writes all of `bytes`, continuing after short writes.
    public func writeAll(_ bytes: [UInt8], path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard written >= 0 else { throw SystemError("write", path: path) }
            offset += written
        }
    }

    /// Reads until end of file, up to `limit` bytes (reading past it is an EFBIG error).
    public func readAll(path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        var result = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
            }
            guard count >= 0 else { throw SystemError("read", path: path) }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            guard result.count <= limit else { throw SystemError("read", path: path, code: EFBIG) }
        }
    }

    /// Flushes the file's data and metadata to the device.
    public func sync(path: String) throws(SystemError) {
        guard retryingOnInterrupt({ fsync(rawValue) }) == 0 else { throw SystemError("sync", path: path) }
    }

    /// Gives the descriptor up without closing it: for a C library that takes it over and closes
    /// it itself (libmicrohttpd's listening socket), so that it is still closed exactly once.
    public consuming func release() -> Int32 {
        let rawValue = rawValue
        discard self
        return rawValue
    }

    deinit {
        _ = Glibc.close(rawValue)
    }
}
