import Glibc
import ServerDomain
import SharedSystem

/// A ledger's database file as SQLite opens it: its directory walked once by the directory-trust
/// rule (`DirectoryTrust`, docs/STATE.md), which follows a symbolic link only where nobody but
/// root and this user could have put it, and the file then opened by the path the walk reached.
///
/// Why: SQLite is opened with `SQLITE_OPEN_NOFOLLOW`, which refuses a symbolic link anywhere in
/// the path (`SQLITE_CANTOPEN_SYMLINK`), and under `DynamicUser=yes` systemd's
/// `$STATE_DIRECTORY` is one (`/var/lib/qrcheckin-server` → `private/qrcheckin-server`): the
/// packaged service never started (issue 37). The walk judges that link as the kiosk's daemon
/// judges its own state directory; SQLite gets a path without links, so no-follow still refuses
/// the database file itself being a link, and any link swapped in after the walk.
public struct SQLiteDatabaseFile: Sendable, Equatable {
    /// The path as configured: what messages name.
    public let path: String
    /// The same file by the path the walk reached: absolute, without links, `.` or `..`.
    public let resolvedPath: String

    /// Walks `path`'s directory. With `directoryMode`, a missing directory is made on the way
    /// (`mkdir -p`, the last one with that mode), each checked like any other. Refused: a
    /// directory others could have made or changed (exit 73, as the kiosk's `run`), one this
    /// user may not search (77), a missing one (the database does not exist).
    public init(_ path: String, directoryMode: mode_t? = nil) throws(LedgerError) {
        self.path = path
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard !name.isEmpty, name != ".", name != ".." else {
            throw LedgerError(.cannotOpen, "cannot use database \(path): not a file name")
        }
        let trusted: TrustedDirectory
        do {
            // .reading: root's commands use the service's log in a directory that is the dynamic
            // user's, and the file's owner can replace it whatever the directory's owner.
            trusted = try DirectoryTrust().open(directory, for: .reading, creating: directoryMode)
        } catch {
            switch error {
            case .missing: throw LedgerError(.missing, "database \(path) does not exist (nor its directory \(directory))")
            case .untrusted: throw LedgerError(.cannotOpen, "cannot use the database's directory: \(error)")
            case .system(_, let failure) where failure.code == EACCES:
                throw LedgerError(.permissionDenied, "cannot use the database's directory: \(error)")
            case .system: throw LedgerError(.cannotOpen, "cannot use the database's directory: \(error)")
            }
        }
        resolvedPath = trusted.resolvedPath == "/" ? "/" + name : trusted.resolvedPath + "/" + name
    }
}
