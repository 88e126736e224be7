import CLinux
import Glibc

extension DirectoryTrust {
    /// Symbolic links followed on one walk before it fails with ELOOP (the kernel's limit).
    public static let maximumLinks = 40

    /// One directory on the way, held by an `O_PATH` descriptor.
    private struct Level {
        let descriptor: Int32
        let entry: Entry
        /// Its path as walked (links resolved), for messages.
        let path: String
    }

    /// Opens `path` as a directory to trust for `use`, walking it from `/` one name at a time by
    /// descriptor (`openat(…, O_PATH | O_NOFOLLOW)`, then `fstat`), following symbolic links,
    /// and checking every directory and link on the way by the rule above. With `mode`, missing
    /// directories are created on the way (`mkdirat`: the last with `mode`, the ones before it
    /// with 0755, like `mkdir -p`) — each checked like any other before anything goes in it.
    /// A relative path starts at the working directory (whose own path is checked too).
    public func open(_ path: String, for use: Use, creating mode: mode_t? = nil) throws(DirectoryTrustError) -> TrustedDirectory {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw .system(path: path, SystemError("open", path: path, code: EINVAL))
        }
        var absolute = path
        if !path.hasPrefix("/") {
            guard let working = Self.workingDirectory() else {
                throw .system(path: path, SystemError("find the working directory for", path: path))
            }
            absolute = working + "/" + path
        }
        let components = Self.components(absolute)
        let named = components.reduce("") { $0 + "/" + $1 }
        func subject(_ walked: String) -> String { walked == named ? "it" : walked }

        var levels: [Level] = []
        defer { for level in levels { _ = close(level.descriptor) } }
        let root = retryingOnInterrupt { SharedSystem.open("/", clinux_o_path() | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw .system(path: path, SystemError("open", path: "/")) }
        var rootStatus = stat()
        guard fstat(root, &rootStatus) == 0 else {
            _ = close(root)
            throw .system(path: path, SystemError("inspect", path: "/"))
        }
        levels.append(Level(descriptor: root, entry: Entry(rootStatus), path: "/"))
        var owners = initialOwners
        if !owners.contains(rootStatus.st_uid) {
            throw .untrusted(path: path, reason: "/ belongs to \(UserDatabase.describe(rootStatus.st_uid)), not to you or root")
        }
        if let problem = writersProblem(levels[0].entry, subject: "/", isFinal: false) { throw .untrusted(path: path, reason: problem) }

        var pending = Array(components.reversed())  // the next name is last
        var links = 0
        while let name = pending.popLast() {
            if name == ".." {
                if levels.count > 1 { _ = close(levels.removeLast().descriptor) }
                continue
            }
            let parent = levels[levels.count - 1]
            let walked = parent.path == "/" ? "/" + name : parent.path + "/" + name
            let fd = retryingOnInterrupt { openat(parent.descriptor, name, clinux_o_path() | O_NOFOLLOW | O_CLOEXEC) }
            guard fd >= 0 else {
                let code = errno
                guard code == ENOENT else { throw .system(path: path, SystemError("open", path: walked, code: code)) }
                guard let mode else { throw .missing(path: path) }
                try create(name, in: parent.descriptor, mode: pending.isEmpty ? mode : 0o755, walked: walked, path: path)
                pending.append(name)  // now check what was made, like anything else
                continue
            }
            var status = stat()
            guard fstat(fd, &status) == 0 else {
                _ = close(fd)
                throw .system(path: path, SystemError("inspect", path: walked))
            }
            let entry = Entry(status)
            if let problem = placementProblem(entry, subject: subject(walked), parent: parent.entry, parentName: parent.path, owners: owners) {
                _ = close(fd)
                throw .untrusted(path: path, reason: problem)
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                let target = Self.linkTarget(fd)
                let code = errno
                _ = close(fd)
                links += 1
                guard let target, links <= Self.maximumLinks else {
                    throw .system(path: path, SystemError("follow", path: walked, code: target == nil ? code : ELOOP))
                }
                if target.hasPrefix("/") {
                    while levels.count > 1 { _ = close(levels.removeLast().descriptor) }
                }
                pending.append(contentsOf: Self.components(target).reversed())
            case S_IFDIR:
                if let problem = writersProblem(entry, subject: subject(walked), isFinal: false) {
                    _ = close(fd)
                    throw .untrusted(path: path, reason: problem)
                }
                // Only trusted users could have put it here: its owner may change what is in it.
                owners.insert(entry.uid)
                levels.append(Level(descriptor: fd, entry: entry, path: walked))
            default:
                _ = close(fd)
                throw .untrusted(path: path, reason: "\(walked) is \(RegularFile.kindName(status.st_mode & S_IFMT)), not a directory")
            }
        }
        let final = levels.removeLast()
        let problem = writersProblem(final.entry, subject: subject(final.path), isFinal: true)
            ?? ownerProblem(final.entry, subject: subject(final.path), use: use)
        if let problem {
            _ = close(final.descriptor)
            throw .untrusted(path: path, reason: problem)
        }
        return Self.reopened(final, path: path)
    }

    /// Makes directory `name` in `parent` with exactly `mode` (a unit's `UMask=0077` would
    /// narrow 0755 to 0700 and lock readers out). Someone else making it first is fine: the
    /// walk checks whatever is there next.
    private func create(_ name: String, in parent: Int32, mode: mode_t, walked: String, path: String) throws(DirectoryTrustError) {
        guard mkdirat(parent, name, mode) == 0 else {
            guard errno == EEXIST else { throw .system(path: path, SystemError("create directory", path: walked)) }
            return
        }
        // By descriptor, not by name: fchmod changes the directory just made, or nothing.
        let fd = retryingOnInterrupt { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return }
        defer { _ = close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o7777 != mode {
            guard fchmod(fd, mode) == 0 else { throw .system(path: path, SystemError("set the mode of", path: walked)) }
        }
    }

    /// The walked directory as a `TrustedDirectory`: read-only when it may be read (so it can
    /// be synced and listed), else the `O_PATH` handle, which still serves every `*at` call.
    private static func reopened(_ level: Level, path: String) -> TrustedDirectory {
        var descriptor = level.descriptor
        let readable = retryingOnInterrupt { openat(level.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if readable >= 0 {
            _ = close(level.descriptor)
            descriptor = readable
        }
        var status = stat()
        _ = fstat(descriptor, &status)
        return TrustedDirectory(path: path, resolvedPath: level.path, descriptor: descriptor, status: status)
    }

    /// The names in `path`, without empty ones and `.`: split at the byte `/` as the kernel
    /// splits a path (a Character split would keep a `/` followed by a combining mark), and
    /// without walking Characters (the daemon's writer checks its directory at every rotation).
    static func components(_ path: String) -> [String] {
        var names: [String] = []
        var path = path
        path.withUTF8 { bytes in
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                let length = index - start
                if length > 0 && !(length == 1 && bytes[start] == UInt8(ascii: ".")) {
                    names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
                start = index + 1
            }
        }
        return names
    }

    /// What the symbolic link open as `O_PATH | O_NOFOLLOW` descriptor `fd` points to.
    private static func linkTarget(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes { readlinkat(fd, "", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// The working directory's path, or nil when it cannot be told (it was removed).
    private static func workingDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
