import Glibc
import SharedSystem

/// A daemon's directory as a client sees it: checked by `DirectoryTrust` for reading before a
/// `current.json` in it is believed or its socket asked (issue 25: a `/tmp/qrcheckin-UID` that
/// another user made showed a fake code and answered `ctl` for the daemon).
public enum DaemonDirectory {
    /// The directory at `path` held open for reading; nil when there is nothing to trust or
    /// distrust (it does not exist, or this user may not search the way to it: reading then
    /// fails with its own error); throws only when it exists and must not be believed.
    public static func lookUp(_ path: String, trust: DirectoryTrust = DirectoryTrust()) throws(DirectoryTrustError) -> TrustedDirectory? {
        do {
            return try trust.open(path, for: .reading)
        } catch {
            if case .untrusted = error { throw error }
            return nil
        }
    }

    /// What a client says when it refuses a directory: the rule's reason, and what it means.
    public static func refusal(_ error: DirectoryTrustError) -> String {
        error.description + " (someone other than the daemon could show a fake code or answer for it there; "
            + "see docs/STATE.md, Directory trust)"
    }
}

extension TrustedDirectory {
    /// Reads the regular file `name` in this directory whole, up to `limit` bytes (more is
    /// EFBIG), by descriptor: a FIFO or device is refused without waiting on it (`RegularFile`).
    public func read(_ name: String, limit: Int) throws(SystemError) -> [UInt8] {
        let path = pathOf(name)
        let fd = retryingOnInterrupt { openat(descriptor, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", path: path) }
        let file = FileDescriptor(owning: fd)
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("inspect", path: path) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw SystemError("read", path: path, code: type == S_IFDIR ? EISDIR : EINVAL,
                              detail: "it is \(RegularFile.kindName(type)), not a regular file")
        }
        return try file.readAll(path: path, limit: limit)
    }
}

/// Who may answer on a control socket found in a trusted directory: a process of root, of this
/// user, or of the directory's owner (the daemon's user). Checked with SO_PEERCRED after
/// connecting, so a socket another user bound and moved in (a member of a group that may write
/// the directory, say) is not taken for the daemon.
public struct ExpectedPeer: Equatable, Sendable {
    /// Users whose processes may answer.
    public let users: Set<uid_t>

    /// The peers allowed for a socket in `directory`.
    public init(directory: TrustedDirectory, uid: uid_t = geteuid()) {
        users = [0, uid, directory.entry.uid]
    }

    /// Whether `peer` is one of them.
    public func admits(_ peer: PeerCredentials) -> Bool {
        users.contains(peer.uid)
    }
}
