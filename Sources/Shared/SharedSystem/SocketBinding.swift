import CLinux
import Glibc
import Synchronization

/// Puts a listening Unix socket into a directory without ever following a name that someone
/// else could change (issue 25: a root daemon that chowned its socket by path, after binding,
/// chowned whatever symlink an operator had swapped in meanwhile).
///
/// The socket is bound inside a private directory the daemon has just made (mode 0700, held by
/// descriptor, so nobody else can put anything in it), with the mode set by the umask at bind
/// time; its group is set only when it is not already right (systemd's
/// `SystemCallFilter=~@privileged` denies chown, and the packaged unit's own group already is
/// the operators' group), by `fchownat` in that private directory. Only then, listening, is it
/// renamed into the target directory, by descriptor: it appears there whole, or not at all.
public enum SocketBinding {
    /// The name of the socket inside the private directory.
    private static let inner = "socket"

    /// Binds `socket` as `name` in `directory`, with mode 0660 and group `group` (when given),
    /// and listens; returns the identity of the socket file (to remove it later only if it is
    /// still ours).
    public static func bind(_ socket: Int32, as name: String, in directory: TrustedDirectory, group: gid_t?) throws(SystemError) -> TrustedDirectory.Identity {
        let path = directory.pathOf(name)
        let scratch = privateName(for: name)
        guard mkdirat(directory.descriptor, scratch, 0o700) == 0 else { throw SystemError("create a directory beside", path: path) }
        // Removed by name when done: whatever is there then is at most an empty directory.
        defer { _ = unlinkat(directory.descriptor, scratch, AT_REMOVEDIR) }
        let privateFD = retryingOnInterrupt { openat(directory.descriptor, scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard privateFD >= 0 else { throw SystemError("open a directory beside", path: path) }
        let privateDirectory = FileDescriptor(owning: privateFD)
        var published = false
        defer { if !published { _ = unlinkat(privateFD, inner, 0) } }
        var status = stat()
        // Exactly 0700 whatever the umask (another thread's bind may hold 0117 this instant);
        // someone who may write the directory could have put their own in its place.
        _ = fchmod(privateFD, 0o700)
        guard fstat(privateFD, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o7777 == 0o700 else {
            throw SystemError("bind", path: path, code: EPERM, detail: "the private directory it is bound in was replaced")
        }
        try bindInside(socket, privateDirectory: privateDirectory.rawValue, path: path)
        guard fstatat(privateFD, inner, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemError("bind", path: path, code: EIO, detail: "the bound socket is not where it was bound")
        }
        if let group, status.st_gid != group {
            guard fchownat(privateFD, inner, uid_t.max, group, AT_SYMLINK_NOFOLLOW) == 0 else { throw SystemError("set the group of", path: path) }
        }
        // The umask made it 0660; a default ACL on the directory could have widened it.
        if status.st_mode & 0o7777 != 0o660 {
            guard fchmodat(privateFD, inner, 0o660, 0) == 0 else { throw SystemError("set the mode of", path: path) }
        }
        // Listening before it is visible: a client that finds the file can connect at once
        // (a bound socket nobody listens on refuses, which clients read as a dead daemon).
        guard listen(socket, SOMAXCONN) == 0 else { throw SystemError("listen on", path: path) }
        guard renameat(privateFD, inner, directory.descriptor, name) == 0 else { throw SystemError("put in place", path: path) }
        published = true
        return TrustedDirectory.Identity(status)
    }

    /// The working directory and the umask are the process's: two threads binding at once (the
    /// unit tests do) would bind in each other's directory. The daemon binds on one thread.
    private static let processState = Mutex(())

    /// bind(2) takes a path, so the socket is bound by a relative name with the private
    /// directory as the working directory, which is put back at once (every other path the
    /// daemon uses is resolved before or after).
    private static func bindInside(_ socket: Int32, privateDirectory: Int32, path: String) throws(SystemError) {
        try processState.withLock { _ throws(SystemError) in try bindInsideAlone(socket, privateDirectory: privateDirectory, path: path) }
    }

    private static func bindInsideAlone(_ socket: Int32, privateDirectory: Int32, path: String) throws(SystemError) {
        let working = retryingOnInterrupt { SharedSystem.open(".", clinux_o_path() | O_DIRECTORY | O_CLOEXEC) }
        guard working >= 0 else { throw SystemError("remember the working directory to bind", path: path) }
        defer { _ = close(working) }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(inner)
        } catch {
            throw SystemError("bind", path: path, code: error.code)
        }
        guard fchdir(privateDirectory) == 0 else { throw SystemError("enter the private directory to bind", path: path) }
        let oldMask = umask(0o117)  // the socket's mode: 0660, never briefly open to everyone
        let bound = address.withSocketAddress { Glibc.bind(socket, $0, $1) } == 0
        let code = errno
        umask(oldMask)
        guard fchdir(working) == 0 else { throw SystemError("return to the working directory after binding", path: path) }
        guard bound else { throw SystemError("bind", path: path, code: code) }
    }

    /// `.NAME.PID.RANDOM.bind`: hidden, unique, and recognisable for `removeStale`.
    public static func privateName(for name: String, pid: Int32 = getpid(), random: UInt32 = UInt32.random(in: 0...UInt32.max)) -> String {
        ".\(String(decoding: name.utf8.prefix(200), as: UTF8.self)).\(pid).\(random).bind"
    }

    /// Removes private directories (and the socket in one) that a daemon killed while binding
    /// left in `directory`: only names of exactly that shape, of a process that is gone.
    public static func removeStale(in directory: TrustedDirectory, for name: String) {
        let fd = retryingOnInterrupt { openat(directory.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0, let stream = fdopendir(fd) else { return }
        defer { closedir(stream) }
        let prefix = privateName(for: name, pid: 0, random: 0).dropLast(".0.0.bind".count)
        var stale: [String] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard entryName.hasPrefix(prefix + "."), entryName.hasSuffix(".bind") else { continue }
            let fields = entryName.dropFirst(prefix.count + 1).dropLast(5).split(separator: ".")
            guard fields.count == 2, let pid = Int32(fields[0]), UInt32(fields[1]) != nil, pid > 0 else { continue }
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }  // its binder is alive
            stale.append(entryName)
        }
        for entryName in stale {
            let stale = retryingOnInterrupt { openat(directory.descriptor, entryName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard stale >= 0 else { continue }
            var status = stat()
            if fstat(stale, &status) == 0, status.st_uid == geteuid() { _ = unlinkat(stale, inner, 0) }
            _ = close(stale)
            _ = unlinkat(directory.descriptor, entryName, AT_REMOVEDIR)
        }
    }
}
