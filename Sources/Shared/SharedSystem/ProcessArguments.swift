import CProcessArguments
import Glibc

/// The command line's arguments, taken as raw bytes from the argv the kernel passed.
///
/// Not Swift's `CommandLine`: on Linux it finds argv through `/proc/self/maps`, so with /proc
/// unmounted (an image builder's chroot) or `environ` moved by an LD_PRELOAD constructor it
/// reported argc 0, and `1..<argc` trapped in every command, `--version` included. The C
/// module `CProcessArguments` keeps what glibc hands its `.init_array` constructors instead.
/// And bytes, not `CommandLine.arguments`, which would silently repair invalid UTF-8 that
/// `encode` must report.
public enum ProcessArguments {
    /// An argument that is not valid UTF-8: `index` counts from 1, as `argv` does.
    public struct NotUTF8: Error, Equatable, Sendable {
        /// Which argument.
        public let index: Int

        /// The argument at `index`.
        public init(index: Int) {
            self.index = index
        }
    }

    /// This process's arguments after the program name (none when argc is 0 or 1).
    public static func current() throws(NotUTF8) -> [String] {
        if let argv = cprocess_argv() {
            return try decode(count: Int(cprocess_argc()), vector: argv)
        }
        // No constructor ran (a C library that does not pass argv to them): Swift's own finding.
        return try decode(count: Int(CommandLine.argc), vector: CommandLine.unsafeArgv)
    }

    /// The `count` entries of `vector` after the first, as text. A count of 0 (argv[0] missing:
    /// an `execve` with an empty argv) or a null entry means there are no more arguments.
    public static func decode(count: Int, vector: UnsafePointer<UnsafeMutablePointer<CChar>?>) throws(NotUTF8) -> [String] {
        var arguments: [String] = []
        var index = 1
        while index < count, let raw = vector[index] {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            guard let argument = String(validating: bytes, as: UTF8.self) else { throw NotUTF8(index: index) }
            arguments.append(argument)
            index += 1
        }
        return arguments
    }
}
