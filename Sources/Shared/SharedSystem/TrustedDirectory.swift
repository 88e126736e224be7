import CLinux
import Glibc

/// A directory that passed `DirectoryTrust`, held open: every file operation on it goes through
/// its descriptor (`openat`, `renameat`, `fstatat`, …), so a path swapped meanwhile cannot
/// redirect it anywhere else.
public final class TrustedDirectory {
    /// The path it was opened by (for messages).
    public let path: String
    /// The same directory as the walk reached it: absolute, every symbolic link on the way
    /// resolved, no `.` or `..` (`/var/lib/private/NAME` for systemd's `/var/lib/NAME` link).
    /// For a library that can only open by path and refuses any link in it (SQLite's
    /// `SQLITE_OPEN_NOFOLLOW`): the links were judged once, by the walk.
    public let resolvedPath: String
    /// The directory's descriptor, owned: read-only, or `O_PATH` when it may only be searched.
    public let handle: FileDescriptor
    /// `handle`'s raw descriptor, for the `*at` calls.
    public var descriptor: Int32 { handle.rawValue }
    /// Owner, group and mode when it was checked.
    public let entry: DirectoryTrust.Entry
    /// Device and inode: which directory this is, to tell whether a path still leads here.
    public let identity: Identity

    /// Which directory a `stat` describes.
    public struct Identity: Equatable, Sendable {
        /// `st_dev`.
        public let device: UInt64
        /// `st_ino`.
        public let inode: UInt64

        /// The identity of the file `status` describes.
        public init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// Takes ownership of `descriptor`, a directory `status` describes, reached at `resolvedPath`.
    init(path: String, resolvedPath: String, descriptor: Int32, status: stat) {
        self.path = path
        self.resolvedPath = resolvedPath
        handle = FileDescriptor(owning: descriptor)
        entry = DirectoryTrust.Entry(status)
        identity = Identity(status)
    }

    /// The status of `name` in this directory, not following a symbolic link; nil when missing.
    public func status(of name: String) -> stat? {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// Syncs the directory so renames in it survive a power cut. The data is safe already; a
    /// failed directory sync only weakens durability, so it is not an error.
    public func sync() {
        if fsync(descriptor) == 0 { return }  // an O_PATH handle cannot be synced (EBADF): open one
        let fd = retryingOnInterrupt { openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }

    /// `path/name`, for messages.
    public func pathOf(_ name: String) -> String {
        path == "/" ? "/" + name : path + "/" + name
    }
}
