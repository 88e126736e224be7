import Glibc

/// Reads small text files whole.
public enum TextFile {
    /// The file's bytes; missing files throw ENOENT like any other error. Only a regular file is
    /// read (`RegularFile`): a FIFO, device or directory is refused at once, never waited on.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        try RegularFile.read(path, limit: limit)
    }

    /// Why `path` is not safe to publish from, or nil: it must be a real directory (not a
    /// symlink) owned by this user or root and not writable by others. Otherwise another local
    /// user could have created it first (in /tmp) and swap in a fake QR or socket.
    public static func ownershipProblem(of path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "cannot inspect it: \(String(cString: strerror(errno)))" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "it is not a directory (a symlink?)" }
        guard status.st_uid == geteuid() || status.st_uid == 0 else { return "it belongs to uid \(status.st_uid), not to this user" }
        guard status.st_mode & S_IWOTH == 0 else { return "anyone may write to it (mode \(String(status.st_mode & 0o7777, radix: 8)))" }
        return nil
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
        guard mkdir(path, mode) == 0 else {
            guard errno == EEXIST else { throw SystemError("create directory", path: path) }
            return
        }
        // A unit's UMask=0077 would narrow 0755 to 0700 and lock readers out: state it exactly.
        guard chmod(path, mode) == 0 else { throw SystemError("set the mode of", path: path) }
    }
}
