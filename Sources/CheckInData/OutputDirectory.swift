import Glibc

/// The daemon's output directory, checked by `DirectoryTrust` at start and again before every
/// write: the path is walked anew each time (a few `openat`/`fstat` calls), so a directory that
/// was swapped for a link, re-created by someone else or loosened (`chmod 0777`) while the
/// daemon runs stops getting files at once, and the reason is the write's failure; a
/// trustworthy directory back at the path gets them again. A missing one is made again (mode
/// `mode`) through the same check.
public final class OutputDirectory {
    /// The configured path.
    public let path: String
    /// The mode it is made with.
    public let mode: mode_t
    private let trust: DirectoryTrust

    /// Opens (making it when missing) and checks the directory at `path`.
    public init(path: String, mode: mode_t = 0o755, trust: DirectoryTrust = DirectoryTrust()) throws(DirectoryTrustError) {
        self.path = path
        self.mode = mode
        self.trust = trust
        _ = try current()
    }

    /// The directory to write into now, held open, or why there is none to trust.
    public func current() throws(DirectoryTrustError) -> TrustedDirectory {
        try trust.open(path, for: .publishing, creating: mode)
    }
}
