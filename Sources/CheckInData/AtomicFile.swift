import Glibc

/// Replaces files so that a reader sees the old file or the new one, never a mix or a part.
///
/// The new content goes to a hidden temporary file in the same directory (same file system, so
/// the rename is atomic), is synced, then renamed over the target; the directory is synced so the
/// rename survives a power cut. On any failure the temporary file is removed and the old file
/// is left untouched.
public enum AtomicFile {
    /// Writes `bytes` to `path` with permission `mode`. With `replacing` false an existing file
    /// is never touched: the temporary is hard-linked into place instead of renamed, which fails
    /// with EEXIST if the name exists (O_EXCL semantics, and still no partial file ever visible).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, replacing: Bool = true) throws(SystemError) {
        let prepared = try prepare(bytes, for: path, mode: mode)
        defer { prepared.discard() }  // after a rename there is nothing left to remove
        if replacing {
            try prepared.publish()
        } else {
            guard link(prepared.temporary, path) == 0 else { throw SystemError("create", path: path) }
        }
        syncDirectory(of: path)
    }

    /// Writes `bytes` to a synced temporary beside `path` without touching `path`: the first
    /// half of `write`, for callers that put several files in place together. The caller must
    /// `publish()` or `discard()` it.
    public static func prepare(_ bytes: [UInt8], for path: String, mode: mode_t = 0o644) throws(SystemError) -> PreparedFile {
        let directory = PathName.directory(of: path)
        // The temporary name adds up to 24 bytes to the base name; a base name near NAME_MAX
        // (255) made open(2) fail with ENAMETOOLONG for a path that is itself valid. So only
        // the first 200 bytes of it go into the temporary name (a character cut in two becomes
        // U+FFFD: at most 202 bytes).
        let stem = String(decoding: PathName.base(of: path).utf8.prefix(200), as: UTF8.self)
        let temporary = "\(directory)/.\(stem).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let prepared = PreparedFile(temporary: temporary, path: path)
        do throws(SystemError) {  // a scope: the descriptor closes before the file is published
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
            } catch {
                // Name the file the caller asked for, not our temporary.
                throw SystemError("create", path: path, code: error.code)
            }
            try file.writeAll(bytes, path: path)
            // umask may have narrowed the mode given to open(2); state it exactly.
            guard fchmod(file.rawValue, mode) == 0 else { throw SystemError("set the mode of", path: path) }
            try file.sync(path: path)
        } catch {
            prepared.discard()
            throw error
        }
        return prepared
    }

    /// Syncs the directory of `path` so renames in it survive a power cut. The data is safe
    /// already; a failed directory sync only weakens durability, so it is not an error.
    public static func syncDirectory(of path: String) {
        if let dir = try? FileDescriptor.open(PathName.directory(of: path), O_RDONLY | O_DIRECTORY) {
            _ = fsync(dir.rawValue)
        }
    }

    /// Removes temporaries that a killed writer (kill -9, power cut) left in `directory` for
    /// the files named `names` (`.NAME.PID.RANDOM.tmp`); other files are left alone. Only for a
    /// directory one writer owns: another writer's file in flight would go too.
    public static func removeTemporaries(in directory: String, for names: [String]) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".tmp"), names.contains(where: { name.hasPrefix(".\($0).") }) { unlink(directory + "/" + name) }
        }
    }

    /// Writes UTF-8 `text` to `path`.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws(SystemError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }
}

/// New content written and synced beside its target, not yet in place.
public struct PreparedFile: Sendable {
    /// The hidden temporary holding the content.
    public let temporary: String
    /// The file it will replace.
    public let path: String

    /// Renames the temporary over the target: atomic, the old file or the new one, never a mix.
    public func publish() throws(SystemError) {
        guard rename(temporary, path) == 0 else { throw SystemError("replace", path: path) }
    }

    /// Removes the temporary (nothing happens once it was published).
    public func discard() {
        unlink(temporary)
    }
}

/// Splits paths the way dirname(1) and basename(1) do, without Foundation.
public enum PathName {
    /// The directory part of `path` ("." when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = path[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// The last component of `path`.
    public static func base(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
