import CSQLite
import Glibc
import ServerDomain
import ServerLedgerContract
import ServerLedgerSQL
import ServerSQLite
import SharedDomain
import Testing

/// A clock stopped at one moment (migrations record when they ran).
struct FixedClock: WallClock {
    func now() -> WallTime { WallTime(seconds: 1_796_029_200) }
}

/// The SQLite ledger keeps every port's contract and SQLite's own promises: WAL, one schema,
/// a private file, nothing of another program touched.
struct SQLiteLedgerTests {
    @Test(arguments: KioskFleetContract.cases)
    func kiosks(_ rule: KioskFleetContract.Case) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: KioskFleetContract.subject(try Self.ledger(directory)))
    }

    /// A new ledger in `directory`, its commits as `durability` says.
    static func ledger(_ directory: TemporaryDirectory, durability: SQLiteDurability = .full) throws -> SQLiteLedger {
        try SQLiteLedger(path: directory.file("checkins.db"), create: true, durability: durability, clock: FixedClock(), pool: TestPool.shared)
    }

    // Each port's contract, with both durabilities.

    @Test(arguments: LedgerContract.visitLedger, SQLiteDurability.allCases)
    func visits(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    @Test(arguments: LedgerContract.visitLog, SQLiteDurability.allCases)
    func log(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    /// Issue 40's webhooks: endpoints, the outbox in the check-ins' transactions, claims.
    @Test(arguments: WebhookContract.cases)
    func webhooks(_ rule: WebhookContract.Case) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory))
    }

    @Test(arguments: LedgerContract.refusalLog, SQLiteDurability.allCases)
    func refusals(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    @Test(arguments: LedgerContract.auditLog, SQLiteDurability.allCases)
    func audit(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    @Test(arguments: LedgerContract.erasure, SQLiteDurability.allCases)
    func erasure(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    @Test(arguments: LedgerContract.transactions, SQLiteDurability.allCases)
    func transactions(_ rule: LedgerContract.Case, durability: SQLiteDurability) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory, durability: durability))
    }

    @Test(arguments: VisitFlowContract.cases)
    func visitFlow(_ rule: VisitFlowContract.Case) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try Self.ledger(directory, durability: .normal))
    }

    @Test(arguments: AccountContract.cases)
    func accounts(_ rule: AccountContract.Case) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await SQLiteLedger(path: directory.file("checkins.db"), create: true, clock: FixedClock(), pool: TestPool.shared))
    }

    @Test(arguments: APITokenContract.cases)
    func tokens(_ rule: APITokenContract.Case) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: try await Self.ledger(directory))
    }

    /// Opened again is a new `SQLiteLedger` on the same file, as a restarted server or a
    /// command beside the running server opens it.
    @Test(arguments: LedgerContract.storageCases)
    func storage(_ rule: LedgerContract.StorageCase) async throws {
        let directory = TemporaryDirectory()
        try await rule.run(on: LedgerContract.Storage(
            open: { () async throws(LedgerError) in try await SQLiteLedger(path: directory.file("checkins.db"), create: true, clock: FixedClock(), pool: TestPool.shared) },
            openAnother: { () async throws(LedgerError) in try await SQLiteLedger(path: directory.file("other.db"), create: true, clock: FixedClock(), pool: TestPool.shared) }))
    }

    static let hall = try! VenueID("HALL-1")

    static func entry(_ device: String, at seconds: Int64) -> NewCheckIn {
        NewCheckIn(venue: hall, time: WallTime(seconds: seconds), method: .qr, windowAge: 0, device: DeviceID(device))
    }

    @Test func checkInsSurviveReopeningAndTheSchemaIsAppliedOnce() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        var ids: [Int64] = []
        do {
            let ledger = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
            for index in 0..<5 { ids.append(try await ledger.record(Self.entry("d\(index)", at: 100), duplicateSeconds: 60).checkIn.id) }
        }
        let again = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
        let seen = try await again.checkIns(CheckInQuery(), after: nil).map(\.id)
        #expect(seen == ids)
        // The duplicate keys survive too: the same device within the time is still a duplicate.
        #expect(try await again.record(Self.entry("d0", at: 130), duplicateSeconds: 60) == .duplicate(of: try await again.find(id: ids[0])!))
        #expect(try await Self.query(path, "SELECT count(*) FROM schema_migrations") == "\(LedgerSchema.migrations.count)")
        #expect(try await Self.query(path, "PRAGMA journal_mode") == "wal")
        #expect(try await Self.query(path, "PRAGMA auto_vacuum") == "2")  // incremental
    }

    @Test func theFileIsPrivateAndALinkIsRefused() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        symlink(path, directory.file("link.db"))
        await #expect(throws: LedgerError.self) { try await SQLiteLedger(path: directory.file("link.db"), create: true, clock: FixedClock(), pool: TestPool.shared) }
    }

    @Test func aMissingDatabaseIsNotCreatedUnlessAsked() async {
        let directory = TemporaryDirectory()
        do {
            _ = try await SQLiteLedger(path: directory.file("none.db"), create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("opened a database that does not exist")
        } catch {
            #expect(error.kind == .missing)
        }
        #expect(access(directory.file("none.db"), F_OK) != 0)
    }

    @Test func anotherProgramsDatabaseIsLeftAlone() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.db")
        try await Self.query(path, "CREATE TABLE notes (text TEXT)", create: true)
        do {
            _ = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("adopted another program's database")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains("not a qrcheckin-server ledger"))
        }
        #expect(try await Self.query(path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'") == "1")
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        try await Self.query(path, "INSERT INTO schema_migrations VALUES (99, 'from the future', 0)")
        do {
            _ = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("opened a ledger of a newer schema")
        } catch {
            #expect(error.kind == .tooNew)
        }
    }

    @Test func aDamagedFileIsCorrupt() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = Array(repeating: UInt8(0x5a), count: 8192).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        do {
            _ = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
            Issue.record("opened a file of junk")
        } catch {
            #expect(error.kind == .corrupt)
        }
    }

    /// Runs `sql` on its own connection and returns the first column of the first row.
    @discardableResult
    static func query(_ path: String, _ sql: String, create: Bool = false) throws -> String? {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nil) == SQLITE_OK else {
            throw LedgerError(.cannotOpen, path)
        }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw LedgerError(.failed, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_text(statement, 0).map { String(cString: $0) }
    }

    /// The plan SQLite makes for `sql` (`EXPLAIN QUERY PLAN`): its steps' details, one a line.
    static func plan(_ path: String, _ sql: String) throws -> String {
        try column(3, of: "EXPLAIN QUERY PLAN " + sql, path).joined(separator: "\n")
    }

    /// The opcodes of the program SQLite makes for `sql` (`EXPLAIN`), in order.
    static func opcodes(_ path: String, _ sql: String) throws -> [String] {
        try column(1, of: "EXPLAIN " + sql, path)
    }

    /// Column `index` of every row `sql` gives, on a connection of its own. Read-write though
    /// nothing is written: on a read-only connection SQLite leaves a write's constraint checks
    /// out of the program `EXPLAIN` shows.
    static func column(_ index: Int32, of sql: String, _ path: String) throws -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw LedgerError(.cannotOpen, path) }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw LedgerError(.failed, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { values.append(sqlite3_column_text(statement, index).map { String(cString: $0) } ?? "") }
        return values
    }
}
