import Glibc

/// Who is on the other end of a Unix socket, as the kernel vouches for it (SO_PEERCRED).
public struct PeerCredentials: Equatable, Sendable {
    public let pid: Int32
    public let uid: uid_t
    public let gid: gid_t

    /// Reads the credentials of the peer connected to `socket`.
    init(socket: Int32) throws(SystemError) {
        // struct ucred is only declared under _GNU_SOURCE; its layout is the kernel ABI.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SystemError("read peer credentials of", path: "control socket")
        }
        (pid, uid, gid) = credentials
    }

    /// Whether this peer is `uid`, root, or in group `group` (primary or supplementary).
    public func isAllowed(ownUID: uid_t, group: gid_t?) -> Bool {
        if uid == 0 || uid == ownUID { return true }
        guard let group else { return false }
        if gid == group { return true }
        guard let entry = getpwuid(uid) else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(entry.pointee.pw_name, gid, &groups, &count) < 0 {
            // More groups than fit: `count` now says how many; ask again with room for them.
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(entry.pointee.pw_name, gid, &groups, &count) >= 0 else { return false }
        }
        return groups.prefix(Int(count)).contains(group)
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
