import Glibc

/// Reads small text files whole.
public enum TextFile {
    /// The file's bytes; missing files throw ENOENT like any other error.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.open(path, O_RDONLY)
        do {
            return try file.readAll(path: path, limit: limit)
        } catch {
            throw error.code == EFBIG ? SystemError("read", path: path, code: EFBIG) : error
        }
    }

    /// Ensures `path` is a directory, creating it (and parents) with `mode` when missing.
    public static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        var isDirectory = stat()
        if stat(path, &isDirectory) == 0 {
            guard isDirectory.st_mode & S_IFMT == S_IFDIR else { throw SystemError("use", path: path, code: ENOTDIR) }
            return
        }
        let parent = PathName.directory(of: path)
        if parent != path && parent != "." && parent != "/" { try makeDirectory(parent, mode: 0o755) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else { throw SystemError("create directory", path: path) }
    }
}
