import CLinux
import Glibc

/// A failed system call: what was being done, to which path, and the errno it returned.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being attempted, as a verb phrase ("create", "write", "rename").
    public let operation: String
    /// The file or directory involved.
    public let path: String
    /// The errno value.
    public let code: Int32
    /// A more precise reason than the errno's text, when there is one ("it is a FIFO, not a
    /// regular file" says more than EINVAL's "Invalid argument").
    public let detail: String?

    /// Captures the current `errno` for `operation` on `path`; `detail` overrides its text.
    public init(_ operation: String, path: String, code: Int32 = SystemError.currentErrno, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    /// The calling thread's errno now (a default argument can only name a public declaration).
    public static var currentErrno: Int32 { clinux_errno() }

    /// Why it failed: `detail`, else the C library's text for the errno ("No space left on device").
    public var reason: String { detail ?? String(cString: strerror(code)) }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

/// Retries a system call that failed with EINTR; the one place that loop lives.
@inline(__always)
public func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
