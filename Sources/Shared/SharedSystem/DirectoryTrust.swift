import Glibc

/// The one rule for which directories qrcheckin writes into or believes (docs/STATE.md,
/// "Directory trust"): the daemon at start and at every re-creation, the clients before they
/// read a `current.json` or talk to a socket.
///
/// The path is walked from `/`, following symbolic links, and every directory on the way must be
/// one that only trusted users can change. Trusted are root and the caller; and the owner of a
/// directory that only trusted users could have put where it is (root made `/run/qrcheckin` for
/// systemd's dynamic user, say). A directory can be changed by its owner, by its group when it
/// is group-writable (fine when that is root's group or the caller's own) and by everyone when
/// world-writable. A sticky world-writable directory such as `/tmp` is fine on the way, since
/// there each user can only change their own entries; so what is in it must belong to a trusted
/// user. A symbolic link can only be replaced, not changed: it counts as what its directory
/// holds. The directory itself must not be writable by others at all, and a directory the
/// daemon publishes in must belong to the daemon's user or root.
///
/// This type holds the decisions (pure, tested on their own); `DirectoryWalk` applies them to
/// the real file system, by descriptor.
public struct DirectoryTrust: Sendable, Equatable {
    /// What the directory is used for.
    public enum Use: Sendable, Equatable {
        /// The daemon writes its outputs, socket or state there: it must own it (or root must).
        case publishing
        /// A client reads a daemon's files or talks to its socket there.
        case reading
    }

    /// What the rule reads from one `stat`: owner, group and mode (with the file type).
    public struct Entry: Equatable, Sendable {
        /// The owner.
        public var uid: uid_t
        /// The group.
        public var gid: gid_t
        /// `st_mode`: file type and permission bits.
        public var mode: mode_t

        /// An entry with these values.
        public init(uid: uid_t, gid: gid_t, mode: mode_t) {
            self.uid = uid
            self.gid = gid
            self.mode = mode
        }

        /// The entry a `stat` describes.
        public init(_ status: stat) {
            self.init(uid: status.st_uid, gid: status.st_gid, mode: status.st_mode)
        }

        /// The permission bits, as `ls -l` and chmod(1) write them (`0755`, `1777`).
        public var octalMode: String {
            let digits = String(mode & 0o7777, radix: 8)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        var isSticky: Bool { mode & S_ISVTX != 0 }
        var isWorldWritable: Bool { mode & S_IWOTH != 0 }
        var isGroupWritable: Bool { mode & S_IWGRP != 0 }
    }

    /// The caller's effective user id.
    public let uid: uid_t
    /// The caller's effective group id: members of it may share the caller's directories.
    public let gid: gid_t

    /// The rule for a caller with these ids (by default this process).
    public init(uid: uid_t = geteuid(), gid: gid_t = getegid()) {
        self.uid = uid
        self.gid = gid
    }

    /// The users trusted before any directory is looked at: root and the caller.
    public var initialOwners: Set<uid_t> { [0, uid] }

    /// Whether members of `group` may write where the caller does: root's group and the caller's own.
    public func trusts(group: gid_t) -> Bool {
        group == 0 || group == gid
    }

    /// Whether untrusted users may create entries in `directory` (it is world-writable, or
    /// writable by a group not trusted); only a sticky one passes the walk like that.
    public func isShared(_ directory: Entry) -> Bool {
        directory.isWorldWritable || (directory.isGroupWritable && !trusts(group: directory.gid))
    }

    /// Why untrusted users could change `directory` (named `subject` in the message), or nil.
    /// On the way (`isFinal` false) a sticky directory passes: there each user changes only
    /// their own entries, and `placementProblem` checks whose they are. The directory itself
    /// must not be writable by untrusted users at all.
    public func writersProblem(_ directory: Entry, subject: String, isFinal: Bool) -> String? {
        if directory.isSticky && !isFinal { return nil }
        if directory.isWorldWritable { return "anyone may write to \(subject) (mode \(directory.octalMode))" }
        if directory.isGroupWritable && !trusts(group: directory.gid) {
            return "members of group \(GroupDatabase.describe(directory.gid)) may write to \(subject) (mode \(directory.octalMode))"
        }
        return nil
    }

    /// Why `entry` (a directory or a symbolic link named `subject`), found in `parent` (named
    /// `parentName`), may have been put there by an untrusted user, or nil. `owners` are the
    /// users trusted so far. In a directory untrusted users may create entries in (a sticky
    /// one), only entries of trusted owners count; elsewhere only trusted users could have
    /// put it there, whoever owns it.
    public func placementProblem(_ entry: Entry, subject: String, parent: Entry, parentName: String, owners: Set<uid_t>) -> String? {
        guard !owners.contains(entry.uid), isShared(parent) else { return nil }
        let what = entry.mode & S_IFMT == S_IFLNK ? "is a symbolic link made by" : "belongs to"
        return "\(subject) \(what) \(UserDatabase.describe(entry.uid)), not to you or root, "
            + "and anyone may create entries in \(parentName) (mode \(parent.octalMode))"
    }

    /// Why the daemon must not publish in `directory` (named `subject`), or nil: it must be the
    /// daemon's user's or root's (another user could replace the files and the socket in it).
    public func ownerProblem(_ directory: Entry, subject: String, use: Use) -> String? {
        guard use == .publishing, directory.uid != 0, directory.uid != uid else { return nil }
        return "\(subject) belongs to \(UserDatabase.describe(directory.uid)), not to this user or root"
    }
}
