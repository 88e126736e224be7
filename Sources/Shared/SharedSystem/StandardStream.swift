import Glibc
import Synchronization

/// The first write error on standard output, like C's `ferror`: 0 while every write succeeded.
private let firstOutputError = Atomic<Int32>(0)

/// Standard output or error, written with write(2): no shared C `FILE` buffers, and each call
/// is one write, so a whole terminal frame or log line goes out in one piece.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `bytes`, or throws the errno of the write that failed (`> /dev/full`).
    public func send(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard written > 0 else {
                let failure = SystemError("write", path: name, code: written == 0 ? EIO : errno)
                if self == .output { _ = firstOutputError.compareExchange(expected: 0, desired: failure.code, ordering: .relaxed) }
                throw failure
            }
            offset += written
        }
    }

    /// Writes all of `bytes`. A failure on standard output is remembered (see `failure`), so a
    /// command whose product is its output can report it; on standard error it is ignored, as
    /// for any diagnostic.
    public func write(_ bytes: [UInt8]) {
        try? send(bytes)
    }

    /// Writes UTF-8 `text` (see `write(_:)` for errors).
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// The first write to standard output that failed, if any: checked before exiting, so no
    /// command reports success having lost its output.
    public static var outputFailure: SystemError? {
        let code = firstOutputError.load(ordering: .relaxed)
        return code == 0 ? nil : SystemError("write", path: StandardStream.output.name, code: code)
    }

    /// How messages name the stream.
    public var name: String { self == .output ? "standard output" : "standard error" }
}
