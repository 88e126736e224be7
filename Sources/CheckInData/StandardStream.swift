import Glibc

/// Standard output or error, written with write(2): no shared C `FILE` buffers, and each call
/// is one write, so a whole terminal frame or log line goes out in one piece.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `bytes`; errors (a closed pipe) are ignored, as for any diagnostic.
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes UTF-8 `text`.
    public func write(_ text: String) {
        write(Array(text.utf8))
    }
}
