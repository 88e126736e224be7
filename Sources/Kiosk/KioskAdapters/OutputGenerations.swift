import Glibc
import KioskCore
import SharedSystem

/// Publishes the files of one code as one atomic set, the way atomic config writers publish
/// several files: each set is written into a fresh generation directory, and one rename of a
/// symlink switches every file at once (docs/STATE.md, "One code in all files"). A writer
/// killed at any moment leaves the old set or the new one, never a mix.
///
/// ```
/// OUT/current.png  -> current/current.png      (made once; readers keep their paths)
/// OUT/current.txt  -> current/current.txt
/// OUT/current.json -> current/current.json     (renamed anew after each switch, for inotify)
/// OUT/current      -> .generations/17          (the switch: one rename(2))
/// OUT/.generations/16/…                         (the previous set, kept for slow readers)
/// OUT/.generations/17/{current.png,current.txt,current.json}
/// ```
///
/// Generations live one directory down so that removing old ones wakes no watcher of the
/// output directory. Everything is done relative to descriptors, never following a link the
/// daemon did not make.
public final class OutputGenerations {
    /// The symlink whose rename switches the set.
    public static let switchName = "current"
    /// The directory holding the generations.
    public static let directoryName = ".generations"
    /// The set's files, in the order they are written.
    public let names: [String]
    /// The file renamed anew after each switch, so watchers of `IN_MOVED_TO` on it hear of
    /// every new set (the last event of a publication).
    public let announced: String
    /// The generation `current` points to (nil: unknown until read).
    private var generation: UInt64?
    /// The one before it, still complete: removed when the next one is written.
    private var previous: UInt64?
    /// Whether the top-level links were checked since start (or since someone removed files).
    private var linksChecked = false
    private let pid = getpid()
    private var temporaries: UInt32 = 0

    /// Publishes sets of the files `names`; `announced` (one of them) is re-linked last.
    public init(names: [String], announced: String) {
        self.names = names
        self.announced = announced
    }

    /// Something in the output directory was removed (or the directory itself): read the
    /// layout again at the next publication.
    public func forgetLayout() {
        generation = nil
        previous = nil
        linksChecked = false
    }

    // MARK: - Publishing

    /// Writes `files` (a subset of `names`, the others linked from the current set: a health
    /// update of `current.json` alone) as a new generation in `trusted` and switches to it.
    /// Throws, leaving the current set as it was, when any file cannot be written. The caller
    /// syncs the directory afterwards.
    public func publish(_ files: [OutputContent], in trusted: TrustedDirectory) throws(SystemError) {
        try publish(files, in: trusted.handle, path: trusted.path)
    }

    /// `publish(_:in:)` on a directory descriptor; `path` names it in messages.
    public func publish(_ files: [OutputContent], in directory: borrowing FileDescriptor, path: String) throws(SystemError) {
        if generation == nil { generation = Self.readSwitch(directory) }
        if !linksChecked {
            // Like every replacing write (AtomicFile), a name held by something other than a
            // regular file or a link is refused, never replaced: before anything is switched.
            for file in names {
                var status = stat()
                guard fstatat(directory.rawValue, file, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let type = status.st_mode & S_IFMT
                guard type == S_IFREG || type == S_IFLNK else {
                    throw SystemError("replace", path: path + "/" + file, code: type == S_IFDIR ? EISDIR : EEXIST,
                                      detail: "it is \(RegularFile.kindName(type)), not a regular file; refusing to replace it")
                }
            }
        }
        let generations = try openGenerations(directory, path: path)
        // The set before the current one goes first, so that no more than two sets are ever
        // on disk (the current one and the one being written): a nearly full disk that had
        // room for one file at a time has room for this too.
        if let old = previous {
            Self.removeGeneration(String(old), in: generations.rawValue, names: names)
            previous = nil
        }
        let number = try makeGeneration(in: generations, path: path)
        let name = String(number)
        do throws(SystemError) {
            let set = try Self.open(at: generations.rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW,
                                    path: path + "/" + Self.directoryName + "/" + name)
            // A unit's UMask=0077 would narrow the mode and lock the web server out.
            guard fchmod(set.rawValue, 0o755) == 0 else { throw SystemError("set the mode of", path: path + "/" + name) }
            for file in names {
                if let content = files.first(where: { $0.name == file }) {
                    try Self.write(content.bytes, at: set.rawValue, file, path: path + "/" + file)
                } else {
                    guard let current = generation,
                          linkat(generations.rawValue, "\(current)/\(file)", set.rawValue, file, 0) == 0 else {
                        throw SystemError("keep", path: path + "/" + file, code: generation == nil ? ENOENT : errno)
                    }
                }
            }
            guard fsync(set.rawValue) == 0, fsync(generations.rawValue) == 0 else { throw SystemError("sync", path: path) }
            try relink(Self.switchName, to: Self.directoryName + "/" + name, in: directory, path: path)
        } catch {
            Self.removeGeneration(name, in: generations.rawValue, names: names)
            throw error
        }
        previous = generation
        generation = number
        if !linksChecked {
            // The first set (or the first after a removal): the files become links to it,
            // replacing a regular file an older version left, atomically.
            for file in names where file != announced && Self.readLink(directory, file) != Self.switchName + "/" + file {
                try? relink(file, to: Self.switchName + "/" + file, in: directory, path: path)
            }
            linksChecked = true
        }
        // Same target, new link: watchers see IN_MOVED_TO for it after the switch, as before.
        try? relink(announced, to: Self.switchName + "/" + announced, in: directory, path: path)
    }

    /// Opens (making it when missing) the generations directory, refusing a link there.
    private func openGenerations(_ directory: borrowing FileDescriptor, path: String) throws(SystemError) -> FileDescriptor {
        let location = path + "/" + Self.directoryName
        do {
            return try Self.open(at: directory.rawValue, Self.directoryName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, path: location)
        } catch where error.code == ENOENT {
            guard mkdirat(directory.rawValue, Self.directoryName, 0o755) == 0 || errno == EEXIST else {
                throw SystemError("create directory", path: location)
            }
            let made = try Self.open(at: directory.rawValue, Self.directoryName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, path: location)
            guard fchmod(made.rawValue, 0o755) == 0 else { throw SystemError("set the mode of", path: location) }
            return made
        }
    }

    /// Makes the next generation's directory; returns its number.
    private func makeGeneration(in generations: borrowing FileDescriptor, path: String) throws(SystemError) -> UInt64 {
        var number = max(generation ?? 0, previous ?? 0) &+ 1
        // A leftover of the same number (a killed writer's, not yet swept) is skipped, not reused.
        for _ in 0..<64 {
            if mkdirat(generations.rawValue, String(number), 0o755) == 0 { return number }
            guard errno == EEXIST else { break }
            number &+= 1
        }
        throw SystemError("create directory", path: path + "/" + Self.directoryName + "/" + String(number))
    }

    /// Points `name` in `directory` at `target` by renaming a fresh symlink over it: readers see
    /// the old link or the new one, never none.
    private func relink(_ name: String, to target: String, in directory: borrowing FileDescriptor, path: String) throws(SystemError) {
        for _ in 0..<2 {
            temporaries &+= 1
            let temporary = AtomicFile.temporaryName(for: name, pid: pid, random: temporaries)
            guard symlinkat(target, directory.rawValue, temporary) == 0 else {
                // Ours from an earlier life with the same process id (a container): stale.
                if errno == EEXIST { _ = unlinkat(directory.rawValue, temporary, 0); continue }
                throw SystemError("create", path: path + "/" + name)
            }
            guard renameat(directory.rawValue, temporary, directory.rawValue, name) == 0 else {
                let error = SystemError("replace", path: path + "/" + name)
                _ = unlinkat(directory.rawValue, temporary, 0)
                throw error
            }
            return
        }
        throw SystemError("create", path: path + "/" + name, code: EEXIST)
    }

    // MARK: - Start-up

    /// Removes what killed writers left in `path`: every generation `current` does not point to
    /// (half-written or superseded) and the temporary links; returns the paths removed (the
    /// temporaries, not the old generations: those are left by every clean stop too).
    @discardableResult
    public func sweep(_ trusted: TrustedDirectory) -> [String] {
        sweep(trusted.handle, path: trusted.path)
    }

    /// `sweep(_:)` on a directory descriptor; `path` names it in the paths returned.
    @discardableResult
    public func sweep(_ directory: borrowing FileDescriptor, path: String) -> [String] {
        forgetLayout()
        generation = Self.readSwitch(directory)
        var removed: [String] = []
        if let generations = try? Self.open(at: directory.rawValue, Self.directoryName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, path: path) {
            for entry in Self.entries(generations.rawValue) where UInt64(entry) != nil && UInt64(entry) != generation {
                Self.removeGeneration(entry, in: generations.rawValue, names: names)
            }
        }
        let ours = Set([Self.switchName] + names)
        for entry in Self.entries(directory.rawValue) {
            guard let (stem, owner) = AtomicFile.parseTemporaryName(entry), ours.contains(stem) else { continue }
            if owner != pid && (kill(owner, 0) == 0 || errno == EPERM) { continue }  // its writer is alive
            var status = stat()
            guard fstatat(directory.rawValue, entry, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFLNK else { continue }
            if unlinkat(directory.rawValue, entry, 0) == 0 { removed.append(path + "/" + entry) }
        }
        return removed
    }

    // MARK: - Helpers

    /// The generation `current` points to, if it is one of ours.
    private static func readSwitch(_ directory: borrowing FileDescriptor) -> UInt64? {
        guard let target = readLink(directory, switchName), target.hasPrefix(directoryName + "/") else { return nil }
        return UInt64(target.dropFirst(directoryName.count + 1))
    }

    /// The target of the symlink `name` in `directory`, or nil when it is not a symlink.
    private static func readLink(_ directory: borrowing FileDescriptor, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { readlinkat(directory.rawValue, name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Removes a generation: its files (only ours: they have known names), then the directory.
    private static func removeGeneration(_ name: String, in generations: Int32, names: [String]) {
        guard let set = try? open(at: generations, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, path: name) else { return }
        for file in names { _ = unlinkat(set.rawValue, file, 0) }
        _ = unlinkat(generations, name, AT_REMOVEDIR)
    }

    /// Writes a new file `name` in `directory` (never replacing one), synced.
    private static func write(_ bytes: [UInt8], at directory: Int32, _ name: String, path: String) throws(SystemError) {
        let file = try open(at: directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644, path: path, operation: "create")
        try file.writeAll(bytes, path: path)
        guard fchmod(file.rawValue, 0o644) == 0 else { throw SystemError("set the mode of", path: path) }
        try file.sync(path: path)
    }

    private static func open(at directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0,
                             path: String, operation: String = "open") throws(SystemError) -> FileDescriptor {
        let fd = retryingOnInterrupt { openat(directory, name, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError(operation, path: path) }
        return FileDescriptor(owning: fd)
    }

    /// The names in a directory (a descriptor we keep: the stream gets its own duplicate).
    private static func entries(_ directory: Int32) -> [String] {
        let copy = dup(directory)
        guard copy >= 0, let stream = fdopendir(copy) else { return [] }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
