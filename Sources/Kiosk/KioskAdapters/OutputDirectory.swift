import Glibc
import SharedSystem

/// The daemon's output directory, checked by `DirectoryTrust` at start and again before every
/// write, so a directory that was swapped for a link, re-created by someone else or loosened
/// (`chmod 0777`) while the daemon runs stops getting files at once, and the reason is the
/// write's failure; a trustworthy directory back at the path gets them again. A missing one is
/// made again (mode `mode`) through the same check.
///
/// The directory that passed is held open between writes. Before each write it is checked
/// again cheaply: its own status (`fstat` of the held descriptor: owner, group, mode, not
/// removed) and that the path still names it (one `stat` of the path, links followed, as the
/// walk follows them: same device and inode). Anything else — a swap, a re-creation, a
/// loosened mode — walks the whole path again, which refuses or re-opens. The whole walk (every
/// directory on the way, each link) is repeated anyway when the last one is `rewalkInterval`
/// old, so a loosened parent is found within that time too, however often the daemon writes.
public final class OutputDirectory {
    /// How long a walk of the whole path stands before the next write walks it again (1 s).
    public static let rewalkInterval: Int64 = 1_000_000_000
    /// The configured path.
    public let path: String
    /// The mode it is made with.
    public let mode: mode_t
    private let trust: DirectoryTrust
    /// Monotonic nanoseconds (injected: tests advance it).
    private let now: () -> Int64
    /// The directory the last walk accepted, and when that walk was.
    private var held: (directory: TrustedDirectory, walkedAt: Int64)?

    /// Opens (making it when missing) and checks the directory at `path`.
    public init(path: String, mode: mode_t = 0o755, trust: DirectoryTrust = DirectoryTrust(),
                now: @escaping () -> Int64 = MonotonicClock().nanoseconds) throws(DirectoryTrustError) {
        self.path = path
        self.mode = mode
        self.trust = trust
        self.now = now
        _ = try current()
    }

    /// The directory to write into now, held open, or why there is none to trust.
    public func current() throws(DirectoryTrustError) -> TrustedDirectory {
        let time = now()
        if let held, time - held.walkedAt < Self.rewalkInterval, Self.stillNamed(held.directory, by: path) {
            return held.directory
        }
        held = nil
        let directory = try trust.open(path, for: .publishing, creating: mode)
        held = (directory, time)
        return directory
    }

    /// Something in or of the directory changed (an inotify event): the next write walks the
    /// whole path again.
    public func forget() {
        held = nil
    }

    /// Whether `directory` is still as the walk accepted it (same owner, group and mode, not
    /// removed) and `path` still leads to it.
    static func stillNamed(_ directory: TrustedDirectory, by path: String) -> Bool {
        var status = stat()
        guard fstat(directory.descriptor, &status) == 0, status.st_nlink > 0,
              DirectoryTrust.Entry(status) == directory.entry else { return false }
        var named = stat()
        guard stat(path, &named) == 0 else { return false }
        return TrustedDirectory.Identity(named) == directory.identity
    }
}
