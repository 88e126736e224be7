import Glibc

/// Standard output for commands whose output is their result (`code`, `verify`): every failed
/// write is an error (exit 74) instead of a silent success, and output is buffered so a stream
/// of results costs one write(2) per batch, not per line.
struct CheckedOutput: ~Copyable {
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    /// Output to `descriptor` (standard output by default). A closed pipe must be a write error
    /// (EPIPE, exit 74), not death by SIGPIPE, so SIGPIPE is ignored from here on.
    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        signal(SIGPIPE, SIG_IGN)
        buffer.reserveCapacity(64 * 1024)
    }

    /// Appends text; written at the next `flush` (or when the buffer is large).
    mutating func append(_ text: String) throws(CommandError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 60 * 1024 { try flush() }
    }

    /// Appends bytes; written at the next `flush`.
    mutating func append(bytes: [UInt8]) throws(CommandError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 60 * 1024 { try flush() }
    }

    /// Writes everything buffered; a failure names the error once.
    mutating func flush() throws(CommandError) {
        var offset = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw CommandError(.ioError, "cannot write standard output: \(String(cString: strerror(code)))")
            }
            offset += written
        }
    }
}
