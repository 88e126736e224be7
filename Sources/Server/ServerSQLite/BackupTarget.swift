import Glibc
import ServerDomain
import SharedSystem

/// Where a backup goes: the destination's name, checked before anything is copied, and the
/// partial file the copy is made in beside it (so a failed or interrupted backup never leaves
/// a half-made file under the destination's name, and a good one appears whole).
public struct BackupTarget: Sendable {
    /// The destination as given (messages name it).
    public let path: String
    /// The destination by the path the directory walk reached.
    let file: SQLiteDatabaseFile
    /// Whether an existing regular file of that name is replaced.
    let replacing: Bool

    /// Checks `path`: its directory must pass the directory-trust rule; an existing file there
    /// is refused unless `replacing`, and then only a regular file may be replaced (an atomic
    /// writer that renamed over `/dev/null` once broke a whole machine).
    public init(_ path: String, replacing: Bool) throws(LedgerError) {
        self.path = path
        self.replacing = replacing
        file = try SQLiteDatabaseFile(path)
        var info = stat()
        if lstat(file.resolvedPath, &info) == 0 {
            guard replacing else { throw LedgerError(.cannotOpen, "\(path) exists: nothing was copied (--force replaces it)") }
            guard info.st_mode & S_IFMT == S_IFREG else { throw LedgerError(.cannotOpen, "\(path) exists and is not a regular file: it is never replaced") }
        } else if errno != ENOENT {
            throw LedgerError(.cannotOpen, "\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A new empty file beside the destination, mode 0600 whatever the umask (a backup holds
    /// the visitor log: personal data), made with `O_EXCL` and no link followed.
    func createPartial() throws(LedgerError) -> PartialBackup {
        let name = file.resolvedPath + ".partial-\(getpid())"
        let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw LedgerError(code == EACCES || code == EPERM ? .permissionDenied : code == ENOSPC ? .full : .cannotOpen,
                              "cannot create a backup beside \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            unlink(name)
            throw LedgerError(.permissionDenied, "cannot make \(name) private: \(String(cString: strerror(code)))")
        }
        return try PartialBackup(file: SQLiteDatabaseFile(name))
    }

    /// Gives `partial` the destination's name: a hard link that fails if the name was taken
    /// meanwhile (then nothing is replaced), or, `replacing`, a rename over it; then syncs the
    /// directory, so the name survives a crash.
    func publish(_ partial: PartialBackup) throws(LedgerError) {
        let from = partial.file.resolvedPath, to = file.resolvedPath
        if replacing {
            var info = stat()
            if lstat(to, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw LedgerError(.cannotOpen, "\(path) exists and is not a regular file: it is never replaced")
            }
            guard rename(from, to) == 0 else { throw failure("cannot name the backup \(path)") }
        } else {
            guard link(from, to) == 0 else {
                if errno == EEXIST { throw LedgerError(.cannotOpen, "\(path) appeared while the backup was made: nothing was replaced") }
                throw failure("cannot name the backup \(path)")
            }
            unlink(from)
        }
        AtomicFile.syncDirectory(of: to)
    }

    private func failure(_ doing: String) -> LedgerError {
        let code = errno
        return LedgerError(code == EACCES || code == EPERM ? .permissionDenied : code == ENOSPC ? .full : .cannotOpen,
                           "\(doing): \(String(cString: strerror(code)))")
    }
}

/// The file a backup is made in until it is checked and named.
struct PartialBackup {
    let file: SQLiteDatabaseFile

    /// Writes the file's data to the disk (before it gets its name): a backup that says done
    /// is on the disk.
    func sync() throws(LedgerError) {
        let descriptor = open(file.resolvedPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            throw LedgerError(code == ENOSPC ? .full : .failed, "cannot sync the backup \(file.path): \(String(cString: strerror(code)))")
        }
        close(descriptor)
    }

    /// Removes the file and anything SQLite left beside it.
    func remove() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(file.resolvedPath + suffix) }
    }
}
