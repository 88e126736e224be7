import Glibc

/// What `AtomicFile.write` does when the path exists and is not a regular file. Renaming a
/// temporary over it would replace it: `encode -o /dev/null` run as root turned /dev/null into
/// a regular file (and broke every program on the machine). So it is never replaced.
public enum ExistingTarget: Sendable, Equatable {
    /// Directories, sockets, block devices, and character devices and FIFOs too, are refused
    /// (a secret, settings, metrics: files only). A symbolic link is itself replaced, never
    /// followed (one planted in a shared directory cannot redirect the write).
    case refuseSpecialFiles
    /// A user's own output path (`encode -o`): a character device or FIFO is written in place,
    /// as qrencode and a shell's `>` do (`-o /dev/null`, `-o /dev/stdout`, `-o FIFO`), even
    /// through a symbolic link, which is followed (and whose regular target is replaced
    /// atomically, leaving the link); directories, sockets and block devices are refused.
    case writeSpecialFilesInPlace

    /// How `path` is to be written: atomically at `path` (maybe a link's resolved target), or
    /// in place. Throws EEXIST when it exists and `replacing` is false, and for what is refused.
    func plan(for path: String, replacing: Bool) throws(SystemError) -> Plan {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .replace(path) }  // nothing there (or unreadable: the write says)
        guard replacing else { throw SystemError("create", path: path, code: EEXIST) }
        var target = path
        if status.st_mode & S_IFMT == S_IFLNK {
            guard self == .writeSpecialFilesInPlace else { return .replace(path) }
            guard stat(path, &status) == 0, let resolved = realpath(path, nil) else { return .replace(path) }  // dangling
            target = String(cString: resolved)
            free(resolved)
        }
        let type = status.st_mode & S_IFMT
        switch type {
        case S_IFREG:
            return .replace(target)
        case S_IFCHR where self == .writeSpecialFilesInPlace, S_IFIFO where self == .writeSpecialFilesInPlace:
            return .inPlace(target)
        default:
            throw SystemError("replace", path: path, code: type == S_IFDIR ? EISDIR : EEXIST,
                              detail: "it is \(RegularFile.kindName(type)), not a regular file; refusing to replace it")
        }
    }

    /// Where and how the bytes go.
    enum Plan: Equatable {
        /// A temporary beside this path, renamed over it.
        case replace(String)
        /// Opened and written as it is (a character device or FIFO).
        case inPlace(String)
    }

    /// Writes `bytes` into the character device or FIFO at `path` as it is: no temporary, no
    /// truncation, no sync (a FIFO waits for its reader, as with a shell's `>`).
    static func writeInPlace(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let file = try FileDescriptor.open(path, O_WRONLY | O_NOCTTY)
        var status = stat()
        guard fstat(file.rawValue, &status) == 0 else { throw SystemError("inspect", path: path) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFCHR || type == S_IFIFO else {
            // Swapped for something else between the check and the open: written as nothing.
            throw SystemError("write", path: path, code: EAGAIN, detail: "it changed while it was opened; try again")
        }
        try file.writeAll(bytes, path: path)
    }
}
