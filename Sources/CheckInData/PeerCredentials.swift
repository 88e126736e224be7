import Glibc

/// Who is on the other end of a Unix socket, as the kernel vouches for it (SO_PEERCRED).
public struct PeerCredentials: Equatable, Sendable {
    public let pid: Int32
    public let uid: uid_t
    public let gid: gid_t
    /// The peer's supplementary groups as the kernel saw them at connect time (SO_PEERGROUPS),
    /// mapped into this process's user namespace: under systemd's `PrivateUsers=` the uid of an
    /// operator reads as nobody, but the daemon's own (mapped) group still shows here.
    public let groups: [gid_t]

    /// Reads the credentials of the peer connected to `socket`.
    init(socket: Int32) throws(SystemError) {
        // struct ucred is only declared under _GNU_SOURCE; its layout is the kernel ABI.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SystemError("read peer credentials of", path: "control socket")
        }
        (pid, uid, gid) = credentials
        groups = Self.peerGroups(socket)
    }

    /// SO_PEERGROUPS (Linux 4.13): empty when unsupported, so the group database decides.
    private static func peerGroups(_ socket: Int32) -> [gid_t] {
        var groups = [gid_t](repeating: 0, count: 64)
        var length = socklen_t(groups.count * MemoryLayout<gid_t>.stride)
        if getsockopt(socket, SOL_SOCKET, SO_PEERGROUPS, &groups, &length) != 0 {
            // ERANGE: `length` now says how much room the list needs.
            guard errno == ERANGE else { return [] }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.stride)
            guard getsockopt(socket, SOL_SOCKET, SO_PEERGROUPS, &groups, &length) == 0 else { return [] }
        }
        return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.stride))
    }

    /// Whether this peer is `uid`, root, or in group `group` (primary or supplementary).
    public func isAllowed(ownUID: uid_t, group: gid_t?) -> Bool {
        if uid == 0 || uid == ownUID { return true }
        guard let group else { return false }
        if gid == group || groups.contains(group) { return true }
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
