import Glibc
import SharedDomain

/// How long ago a file was last modified, by its `st_mtim` (what `status` says of
/// `current.png`'s age).
public enum FileAge {
    /// Whole seconds since `path` was modified, as of `now` (never negative); nil when it
    /// cannot be looked at.
    public static func seconds(of path: String, now: WallTime) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return max(0, now.seconds - Int64(status.st_mtim.tv_sec))
    }
}
