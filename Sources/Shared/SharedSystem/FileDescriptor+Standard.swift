import Glibc

extension FileDescriptor {
    /// A duplicate of standard output, closed when done (standard output itself stays open).
    public static func standardOutput() -> FileDescriptor { FileDescriptor(owning: dup(STDOUT_FILENO)) }

    /// A duplicate of standard input, closed when done (standard input itself stays open).
    public static func standardInput() -> FileDescriptor { FileDescriptor(owning: dup(STDIN_FILENO)) }

    /// `path` opened read-only.
    public static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, O_RDONLY)
    }
}
