import Glibc
import SharedJSON

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
    /// An existing path that is not a regular file is never replaced (`existing`).
    public static func write(_ bytes: [UInt8], to requested: String, mode: mode_t = 0o644, replacing: Bool = true,
                             existing: ExistingTarget = .refuseSpecialFiles) throws(SystemError) {
        let path: String
        switch try existing.plan(for: requested, replacing: replacing) {
        case .inPlace(let device): return try ExistingTarget.writeInPlace(bytes, to: device)
        case .replace(let target): path = target
        }
        let prepared = try prepare(bytes, for: path, mode: mode)
        if replacing {
            do {
                try prepared.publish()  // renamed: no temporary is left to remove
            } catch {
                prepared.discard()
                throw error
            }
        } else {
            defer { prepared.discard() }  // the link is in place; the temporary's name goes
            guard link(prepared.temporary, path) == 0 else { throw SystemError("create", path: path) }
        }
        syncDirectory(of: path)
    }

    /// Writes `bytes` to a synced temporary beside `path` without touching `path`: the first
    /// half of `write`, for callers that put several files in place together. The caller must
    /// `publish()` or `discard()` it.
    public static func prepare(_ bytes: [UInt8], for path: String, mode: mode_t = 0o644) throws(SystemError) -> PreparedFile {
        let directory = PathName.directory(of: path)
        let temporary = directory + "/" + temporaryName(for: PathName.base(of: path), pid: getpid(),
                                                        random: UInt32.random(in: 0...UInt32.max))
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

    /// The hidden temporary a writer with process id `pid` uses for the file named `name`:
    /// `.NAME.PID.RANDOM.tmp`, the one shape `removeTemporaries` recognises.
    public static func temporaryName(for name: String, pid: Int32, random: UInt32) -> String {
        // Bytes through one cursor, not interpolation: four of these are made every rotation.
        var stem = name.utf8.count <= 200 ? name : stem(of: name)
        var bytes: [UInt8] = []
        stem.withUTF8 { stem in
            bytes.append(capacity: stem.count + 2 * ByteCursor.maximumDecimalLength + 8) { out in
                out.write(byte: UInt8(ascii: "."))
                out.write(stem)
                out.write(byte: UInt8(ascii: "."))
                out.write(Int64(pid))
                out.write(byte: UInt8(ascii: "."))
                out.write(Int64(random))
                out.write(".tmp")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the temporaries that killed writers (kill -9, power cut) left behind for the files
    /// `paths`; returns the paths removed. Only names of exactly our shape
    /// (`temporaryName(for:pid:random:)`) for one of those files, and only regular files, are
    /// touched: `.settings.tmp`, `.settings.1.tmp`, `settings.1.2.tmp` or `.settings.1.2.tmp.bak`
    /// are someone else's and stay. A temporary whose PID is a live process other than this one
    /// is another writer's file in flight (`keygen` beside the daemon) and stays too; this
    /// process's own PID counts as dead (at start-up nothing of ours is in flight, and a
    /// container's daemon has the same PID every time).
    @discardableResult
    public static func removeTemporaries(of paths: [String]) -> [String] {
        var byDirectory: [String: Set<String>] = [:]
        for path in paths { byDirectory[PathName.directory(of: path), default: []].insert(PathName.base(of: path)) }
        var removed: [String] = []
        for (directory, names) in byDirectory.sorted(by: { $0.key < $1.key }) {
            removed += removeTemporaries(in: directory, for: Array(names))
        }
        return removed
    }

    /// Removes the stale temporaries in `directory` for the files named `names` (see
    /// `removeTemporaries(of:)`); returns the paths removed.
    @discardableResult
    public static func removeTemporaries(in directory: String, for names: [String]) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var removed: [String] = []
        let stems = Set(names.map(stem(of:)))
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let (stem, pid) = parseTemporaryName(name), stems.contains(stem) else { continue }
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }  // its writer is alive
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The stem and PID of a name shaped `.STEM.PID.RANDOM.tmp` (PID and RANDOM decimal), or nil.
    public static func parseTemporaryName(_ name: String) -> (stem: String, pid: Int32)? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let inner = name.dropFirst().dropLast(4)
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        let random = parts[parts.count - 1], pidText = parts[parts.count - 2]
        let isDecimal: (Substring) -> Bool = { !$0.isEmpty && $0.count <= 10 && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
        guard isDecimal(random), UInt32(random) != nil, isDecimal(pidText), let pid = Int32(pidText), pid > 0 else { return nil }
        let stem = parts[..<(parts.count - 2)].joined(separator: ".")
        guard !stem.isEmpty else { return nil }
        return (stem, pid)
    }

    /// The part of a file name that goes into its temporary's name. The temporary adds up to 24
    /// bytes to it; a base name near NAME_MAX (255) made open(2) fail with ENAMETOOLONG for a
    /// path that is itself valid. So only the first 200 bytes go in (a character cut in two
    /// becomes U+FFFD: at most 202 bytes).
    private static func stem(of name: String) -> String {
        String(decoding: name.utf8.prefix(200), as: UTF8.self)
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

/// Splits paths the way dirname(1) and basename(1) do, without Foundation: at the last byte
/// `/`, as the kernel reads a path (a Character search would skip a `/` that a combining mark
/// follows, and walks graphemes where a byte search does not).
public enum PathName {
    /// The directory part of `path` ("." when there is none).
    public static func directory(of path: String) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == utf8.startIndex ? "/" : String(decoding: utf8[..<slash], as: UTF8.self)
    }

    /// The last component of `path`.
    public static func base(of path: String) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: utf8[utf8.index(after: slash)...], as: UTF8.self)
    }
}
