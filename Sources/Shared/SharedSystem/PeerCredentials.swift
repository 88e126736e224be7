import CLinux
import Glibc

/// Who is on the other end of a Unix socket, as the kernel vouches for it: uid, gid and pid from
/// SO_PEERCRED, supplementary groups from SO_PEERGROUPS, all as they were when the peer called
/// connect(2).
///
/// Group membership is the peer's real credentials, never the group database: a process that
/// holds the ops group (as its primary group, or a supplementary one from `setpriv --groups`,
/// `sg` or systemd's `SupplementaryGroups=`) is a member; a user the database lists whose
/// process dropped the group (`setpriv --clear-groups`, a session started before `usermod -aG`)
/// is not. That is the same rule the kernel used to let it open the socket file.
public struct PeerCredentials: Equatable, Sendable {
    public let pid: Int32
    public let uid: uid_t
    /// The primary (effective) group id.
    public let gid: gid_t
    /// The supplementary groups; empty on kernels without SO_PEERGROUPS (before 4.13), where
    /// only the primary group counts.
    public let groups: [gid_t]

    /// Credentials as given (for tests and callers that already know them).
    public init(pid: Int32, uid: uid_t, gid: gid_t, groups: [gid_t]) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Reads the credentials of the peer connected to `socket`.
    public init(socket: Int32) throws(SystemError) {
        // struct ucred is only declared under _GNU_SOURCE; its layout is the kernel ABI.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SystemError("read peer credentials of", path: "control socket")
        }
        (pid, uid, gid) = credentials
        groups = Self.supplementaryGroups(of: socket)
    }

    /// Whether this peer is `ownUID`, root, or holds group `group` (primary or supplementary).
    public func isAllowed(ownUID: uid_t, group: gid_t?) -> Bool {
        if uid == 0 || uid == ownUID { return true }
        guard let group else { return false }
        return gid == group || groups.contains(group)
    }

    /// SO_PEERGROUPS: the kernel says how much room it needs (ERANGE) when the guess is short.
    private static func supplementaryGroups(of socket: Int32) -> [gid_t] {
        var capacity = 64
        for _ in 0..<3 {
            var groups = [gid_t](repeating: 0, count: capacity)
            var length = socklen_t(capacity * MemoryLayout<gid_t>.stride)
            let result = groups.withUnsafeMutableBytes { getsockopt(socket, SOL_SOCKET, clinux_so_peergroups(), $0.baseAddress, &length) }
            if result == 0 { return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.stride)) }
            guard errno == ERANGE else { return [] }  // ENOPROTOOPT: an old kernel; the primary gid decides
            capacity = Int(length) / MemoryLayout<gid_t>.stride + 1
        }
        return []
    }
}

/// Looks up a group id by name (for `--ops-group`).
public enum GroupDatabase {
    /// The gid of `name`, or nil if there is no such group.
    public static func id(of name: String) -> gid_t? {
        if let number = gid_t(name) { return number }
        return getgrnam(name).map { $0.pointee.gr_gid }
    }
}

extension GroupDatabase {
    /// The name of the group owning the file at `path` (followed through symlinks), or nil when
    /// it is root's group, unknown, or the file cannot be looked at.
    public static func ownerGroupName(ofFileAt path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_gid != 0, let entry = getgrgid(status.st_gid) else { return nil }
        return String(cString: entry.pointee.gr_name)
    }
}
