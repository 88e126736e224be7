import Glibc

/// A file opened for reading only once it proved to be a regular file: the one way this program
/// opens a file it reads (config, settings, `current.json`, the secret).
///
/// A plain `open(O_RDONLY)` of a FIFO blocks until a writer appears, and a read from a terminal
/// or some devices blocks until input comes: a config path pointing at one would hang every
/// command, and a SIGHUP reload would freeze the daemon (no rotation, SIGTERM unheard). So the
/// path is `stat`ed first (a device or FIFO is refused without being opened at all), then opened
/// with `O_NONBLOCK | O_NOCTTY | O_CLOEXEC` (opening a FIFO that was swapped in between returns
/// at once and can never become our controlling terminal), and the descriptor is `fstat`ed, so
/// what is read is the regular file that was checked. Symlinks are followed (an
/// `/etc` config is often one); what they point to must be a regular file too.
public struct RegularFile: ~Copyable {
    /// The open descriptor (read only).
    public let descriptor: FileDescriptor
    /// The file's status from `fstat` of that descriptor: owner, mode, size.
    public let status: stat
    /// The path it was opened by (for messages).
    public let path: String

    /// Opens `path` for reading if it is a regular file. A missing file throws ENOENT from
    /// "open" (as `open(2)` would); anything else throws EINVAL with `detail` naming the kind
    /// ("it is a FIFO, not a regular file").
    public static func open(_ path: String) throws(SystemError) -> RegularFile {
        var before = stat()
        guard stat(path, &before) == 0 else { throw SystemError("open", path: path) }
        try requireRegular(before.st_mode, path: path)
        let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        var after = stat()
        guard fstat(descriptor.rawValue, &after) == 0 else { throw SystemError("inspect", path: path) }
        try requireRegular(after.st_mode, path: path)
        return RegularFile(descriptor: descriptor, status: after, path: path)
    }

    /// Reads `path` whole, up to `limit` bytes (more is EFBIG), if it is a regular file.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        try open(path).readAll(limit: limit)
    }

    /// Reads the rest of the file, up to `limit` bytes (more is an EFBIG error).
    public func readAll(limit: Int) throws(SystemError) -> [UInt8] {
        try descriptor.readAll(path: path, limit: limit)
    }

    /// What a file of type `type` (`st_mode & S_IFMT`) is, for messages: "a FIFO", "a directory".
    public static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func requireRegular(_ mode: mode_t, path: String) throws(SystemError) {
        let type = mode & S_IFMT
        guard type == S_IFREG else {
            // EISDIR is what read(2) of a directory says; EINVAL stands for the other kinds.
            throw SystemError("read", path: path, code: type == S_IFDIR ? EISDIR : EINVAL,
                              detail: "it is \(kindName(type)), not a regular file")
        }
    }
}
