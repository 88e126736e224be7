import Glibc
import ServerDomain
import ServerLedgerContract
import ServerSQLite
import SharedDomain
import Testing

/// Where SQLite opens a ledger: the directory's links judged once by the directory-trust rule
/// and resolved, SQLite's no-follow rule kept for everything after (issue 37).
struct SQLiteDatabaseFileTests {
    /// `directory` laid out as systemd lays out a `DynamicUser=yes` unit's state directory:
    /// `state` → `private/state` (mode 0700 both); returns `state/checkins.db` and where it leads.
    static func dynamicUserLayout(_ directory: TemporaryDirectory) -> (path: String, resolved: String) {
        mkdir(directory.file("private"), 0o700)
        mkdir(directory.file("private/state"), 0o700)
        symlink("private/state", directory.file("state"))
        return (directory.file("state/checkins.db"), directory.file("private/state/checkins.db"))
    }

    /// Removes what `dynamicUserLayout` made (TemporaryDirectory removes files only).
    static func removeLayout(_ directory: TemporaryDirectory) {
        for file in ["checkins.db", "checkins.db-wal", "checkins.db-shm"] { unlink(directory.file("private/state/" + file)) }
        rmdir(directory.file("private/state"))
        rmdir(directory.file("private"))
    }

    @Test func aLedgerInAStateDirectoryThatIsSystemdsLinkOpensAndReopens() async throws {
        let directory = TemporaryDirectory()
        let (path, resolved) = Self.dynamicUserLayout(directory)
        defer { Self.removeLayout(directory) }
        #expect(try await SQLiteDatabaseFile(path).resolvedPath == resolved)
        do {
            let ledger = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
            #expect(ledger.path == path)  // messages name the configured path
            _ = try await ledger.record(SQLiteLedgerTests.entry("d0", at: 100), duplicateSeconds: 60)
        }
        #expect(access(resolved, F_OK) == 0)
        // Reopened by a command, and read-only as the evacuation roll reads it: readers and the
        // checkpointer open the resolved path too.
        var seen = 0
        seen += try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared).checkIns(CheckInQuery(), after: nil).count
        seen += try await SQLiteLedger(readingOnly: path, pool: TestPool.shared).checkIns(CheckInQuery(), after: nil).count
        #expect(seen == 2)
    }

    @Test func theDatabaseFileItselfBeingALinkIsRefusedNamingWhatSQLiteRefused() async throws {
        let directory = TemporaryDirectory()
        _ = try await SQLiteLedger(path: directory.file("checkins.db"), create: true, clock: FixedClock(), pool: TestPool.shared)
        symlink(directory.file("checkins.db"), directory.file("link.db"))
        do {
            _ = try await SQLiteLedger(path: directory.file("link.db"), create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("followed a link to the database file")
        } catch {
            #expect(error.kind == .cannotOpen)
            #expect(error.message.contains("SQLITE_CANTOPEN_SYMLINK: a symbolic link in the path"), "\(error.message)")
        }
    }

    @Test func aDirectoryAnyoneMayWriteIsRefused() async throws {
        let directory = TemporaryDirectory()
        mkdir(directory.file("open"), 0o700)
        chmod(directory.file("open"), 0o777)
        defer { rmdir(directory.file("open")) }
        do {
            _ = try await SQLiteLedger(path: directory.file("open/checkins.db"), create: true, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("made a visitor log where anyone may replace it")
        } catch {
            #expect(error.kind == .cannotOpen)
            #expect(error.message.contains("anyone may write to it (mode 0777)"), "\(error.message)")
        }
        #expect(access(directory.file("open/checkins.db"), F_OK) != 0)
    }

    @Test func aMissingDirectoryIsMadeOnlyWhenAsked() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("made/checkins.db")
        await #expect(throws: LedgerError(.missing, "database \(path) does not exist (nor its directory \(directory.file("made")))")) {
            try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        }
        _ = try await SQLiteLedger(path: path, create: true, directoryMode: 0o700, clock: FixedClock(), pool: TestPool.shared)
        var status = stat()
        #expect(stat(directory.file("made"), &status) == 0 && status.st_mode & 0o7777 == 0o700)
        for file in ["checkins.db", "checkins.db-wal", "checkins.db-shm"] { unlink(directory.file("made/" + file)) }
        rmdir(directory.file("made"))
    }

    /// Root may write any file mode allows; e2e tests make it read-only for root
    /// (test_server_database_file.py: an immutable file, a read-only mount).
    @Test(.enabled(if: geteuid() != 0, "root writes whatever the mode"))
    func aReadOnlyFileIsRefusedAtOpenAsReadOnly() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        chmod(path, 0o444)
        do {
            _ = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("opened a read-only ledger for writing")
        } catch {
            #expect(error.kind == .readOnly)
            #expect(error.message.hasPrefix("database \(path) is read-only (mode 0444"), "\(error.message)")
        }
    }
}
