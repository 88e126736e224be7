import Glibc

/// Why a directory could not be opened as one to trust (`DirectoryWalk`).
public enum DirectoryTrustError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `path` or a directory on the way to it does not exist (and was not to be created).
    case missing(path: String)
    /// `path` exists, but untrusted users could have made or changed it; `reason` says who and
    /// where ("anyone may write to it (mode 0777)").
    case untrusted(path: String, reason: String)
    /// A system call failed on the way (permission denied, a loop of links, …).
    case system(path: String, SystemError)

    /// The directory asked for.
    public var path: String {
        switch self {
        case .missing(let path), .untrusted(let path, _), .system(let path, _): path
        }
    }

    /// The errno closest to it: ENOENT when missing, EPERM when untrusted, else the call's.
    public var code: Int32 {
        switch self {
        case .missing: ENOENT
        case .untrusted: EPERM
        case .system(_, let error): error.code
        }
    }

    /// Why, without the path asked for.
    public var reason: String {
        switch self {
        case .missing: "it does not exist"
        case .untrusted(_, let reason): reason
        case .system(_, let error): error.description
        }
    }

    public var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .untrusted(let path, let reason): "refusing to use \(path): \(reason)"
        case .system(_, let error): error.description
        }
    }
}

/// Names of users, for messages.
public enum UserDatabase {
    /// `uid 1001 (mallory)`, or `uid 1001` when the user has no name here.
    public static func describe(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "uid \(uid) (\(String(cString: name)))"
    }

    /// The name of user `uid`, or nil when it has none here.
    public static func name(of uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}

extension GroupDatabase {
    /// `ops (gid 1002)`, or `gid 1002` when the group has no name here.
    public static func describe(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "gid \(gid)" }
        return "\(String(cString: name)) (gid \(gid))"
    }
}
