import Glibc
import SharedSystem

/// New content written and synced under a hidden temporary name in a held directory, not yet
/// in place: `AtomicFile.prepare(_:as:in:mode:)`'s result. Every step goes through the
/// directory's descriptor, so a path swapped meanwhile changes nothing about where it lands.
public struct PreparedEntry {
    /// The directory it is in.
    public let directory: TrustedDirectory
    /// The hidden temporary's name.
    public let temporary: String
    /// The name it will replace.
    public let name: String

    /// Renames the temporary over `name`: atomic, the old file or the new one, never a mix.
    public func publish() throws(SystemError) {
        guard renameat(directory.descriptor, temporary, directory.descriptor, name) == 0 else {
            throw SystemError("replace", path: directory.pathOf(name))
        }
    }

    /// Removes the temporary (nothing happens once it was published).
    public func discard() {
        _ = unlinkat(directory.descriptor, temporary, 0)
    }
}

extension AtomicFile {
    /// Writes `bytes` to a synced temporary (`synced` false: not synced, for content that need not
    /// survive a power cut) beside `name` in `directory` with permission `mode`, without touching
    /// `name`; the caller must `publish()` or `discard()` it. The temporary is
    /// created with `O_EXCL | O_NOFOLLOW`: it is a new file, never something already there.
    /// Like `AtomicFile.write` (`ExistingTarget.refuseSpecialFiles`), what has the name must be a
    /// regular file or a link (replaced itself, never followed): anything else is refused.
    public static func prepare(_ bytes: [UInt8], as name: String, in directory: TrustedDirectory, mode: mode_t = 0o644,
                               synced: Bool = true) throws(SystemError) -> PreparedEntry {
        let path = directory.pathOf(name)
        if let existing = directory.status(of: name), ![S_IFREG, S_IFLNK].contains(existing.st_mode & S_IFMT) {
            let type = existing.st_mode & S_IFMT
            throw SystemError("replace", path: path, code: type == S_IFDIR ? EISDIR : EEXIST,
                              detail: "it is \(RegularFile.kindName(type)), not a regular file; refusing to replace it")
        }
        let temporary = temporaryName(for: name, pid: getpid(), random: UInt32.random(in: 0...UInt32.max))
        let fd = retryingOnInterrupt { openat(directory.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
        // Name the file the caller asked for, not our temporary.
        guard fd >= 0 else { throw SystemError("create", path: path) }
        let prepared = PreparedEntry(directory: directory, temporary: temporary, name: name)
        do throws(SystemError) {  // a scope: the descriptor closes before the file is published
            let file = FileDescriptor(owning: fd)
            try file.writeAll(bytes, path: path)
            // umask may have narrowed the mode given to openat(2); state it exactly.
            guard fchmod(file.rawValue, mode) == 0 else { throw SystemError("set the mode of", path: path) }
            if synced { try file.sync(path: path) }
        } catch {
            prepared.discard()
            throw error
        }
        return prepared
    }
}
