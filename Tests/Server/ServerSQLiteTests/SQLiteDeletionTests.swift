import Glibc
import ServerLedgerContract
import ServerDomain
import ServerLedgerSQL
import ServerSQLite
import SharedDomain
import Testing

/// Deletion is real: purged and erased rows leave no bytes behind in the database file or its
/// write-ahead log, and the space goes back to the file system.
struct SQLiteDeletionTests {
    static let hall = try! VenueID("HALL-1")
    static let start: Int64 = 1_796_029_200

    /// A ledger with `count` check-ins of one visitor (name `MARKER-…`, device `dev-…`) a second
    /// apart from `start`, recorded in time order (an earlier time after a later one of the
    /// same device would be a duplicate).
    static func filled(_ directory: TemporaryDirectory, count: Int) async throws -> SQLiteLedger {
        let ledger = try await SQLiteLedger(path: directory.file("checkins.db"), create: true, durability: .normal, clock: FixedClock(), pool: TestPool.shared)
        for index in 0..<count {
            let entry = NewCheckIn(venue: hall, time: WallTime(seconds: start + Int64(index)), method: .qr, windowAge: 0,
                                   device: DeviceID("dev-\(index % 50)"),
                                   visitor: Visitor(name: "MARKER-\(index)-" + String(repeating: "x", count: 100),
                                                    phone: "010-5555-\(1000 + index % 9000)"))
            guard case .recorded = try await ledger.record(entry, duplicateSeconds: 0) else {
                throw LedgerError(.failed, "check-in \(index) was taken for a duplicate")
            }
        }
        return ledger
    }

    /// The bytes of `path`, empty when it does not exist.
    static func bytes(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result += chunk.prefix(count)
        }
        return result
    }

    /// Whether `needle` occurs in the database file or its WAL.
    static func traces(of needle: String, in path: String) -> Bool {
        [path, path + "-wal"].contains { file in bytes(file).firstRange(of: Array(needle.utf8)) != nil }
    }

    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    @Test func aPurgeLeavesNoTraceAndTheFileShrinks() async throws {
        let directory = TemporaryDirectory()
        let ledger = try await Self.filled(directory, count: 3000)
        let path = directory.file("checkins.db")
        // All of it in the main file, as days of serving would leave it. The ledger's own
        // checkpointer may be copying meanwhile: SQLite then refuses this one (busy = 1) at once.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await SQLiteLedgerTests.query(path, "PRAGMA wal_checkpoint(TRUNCATE)") != "0", ContinuousClock.now < deadline {
            usleep(1000)
        }
        let before = Self.size(path)
        #expect(before > 500_000, "3000 check-ins of ~200 bytes: \(before) bytes")
        #expect(Self.traces(of: "MARKER-1234-", in: path), "the visitor is in the file before the purge")
        // Everything but the last 100 seconds' check-ins.
        let report = try await ledger.purge(PurgeRequest(checkInsBefore: WallTime(seconds: Self.start + 2900), refusalsBefore: WallTime(seconds: 0),
                                                   keepsCounts: true, dayOffsetSeconds: 9 * 3600))
        #expect(report.checkIns == 2900)
        let after = Self.size(path)
        #expect(after < before / 5, "the file shrank from \(before) to \(after) bytes")
        #expect(Self.size(path + "-wal") == 0, "the write-ahead log is truncated")
        #expect(!Self.traces(of: "MARKER-1234-", in: path), "a purged visitor's name is nowhere in the files")
        #expect(!Self.traces(of: "MARKER-2899-", in: path))
        #expect(Self.traces(of: "MARKER-2950-", in: path), "what is kept is still there")
        #expect(try await ledger.count(CheckInQuery()) == 100)
        #expect(try await ledger.keptCounts(venue: nil).map(\.count) == [2900])
        #expect(try await SQLiteLedgerTests.query(path, "PRAGMA integrity_check") == "ok")
    }

    @Test func aLargePurgeGoesInBatchesAndKeepsEveryCountOnce() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        let ledger = try await SQLiteLedger(path: path, create: true, durability: .normal, clock: FixedClock(), pool: TestPool.shared)
        // 25,000 check-ins, the first 12,000 in one millisecond (a batch ends after a whole
        // millisecond), then one a millisecond, and one after the cutoff.
        try await SQLiteLedgerTests.query(path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000)
            INSERT INTO checkins (venue, at_ms, method, device) SELECT 'HALL-1', CASE WHEN i <= 12000 THEN 1000 ELSE 1000 + i END, 'qr', 'd' || i FROM n
            """)
        try await SQLiteLedgerTests.query(path, "INSERT INTO checkins (venue, at_ms, method) VALUES ('HALL-1', 90000000, 'staff')")
        #expect(SQLiteLedger.purgeBatch < 12_000)
        let report = try await ledger.purge(PurgeRequest(checkInsBefore: WallTime(milliseconds: 86_400_000), refusalsBefore: WallTime(seconds: 0),
                                                   keepsCounts: true))
        #expect(report.checkIns == 25_000)
        #expect(try await ledger.count(CheckInQuery()) == 1)
        #expect(try await ledger.keptCounts(venue: nil) == [DailyCount(venue: Self.hall, day: CalendarDay(daysSince1970: 0), count: 25_000)])
    }

    @Test func anErasureLeavesNoTraceOfTheVisitor() async throws {
        let directory = TemporaryDirectory()
        let ledger = try await Self.filled(directory, count: 1000)
        let path = directory.file("checkins.db")
        // dev-7 made check-ins 7, 57, 107, …: 20 of them.
        #expect(Self.traces(of: "MARKER-707-", in: path))
        #expect(try await ledger.transaction { transaction throws(LedgerError) in try transaction.erase(.device(DeviceID("dev-7")!)) } == 20)
        #expect(!Self.traces(of: "MARKER-707-", in: path), "an erased visitor's name is nowhere in the files")
        #expect(Self.traces(of: "MARKER-708-", in: path), "another device's check-ins stay")
        #expect(try await ledger.count(CheckInQuery()) == 980)
        #expect(try await ledger.count(CheckInQuery(device: DeviceID("dev-7")!)) == 0)
    }

    @Test func aDryRunChangesNotAByte() async throws {
        let directory = TemporaryDirectory()
        let ledger = try await Self.filled(directory, count: 500)
        let path = directory.file("checkins.db")
        let before = (Self.bytes(path), Self.bytes(path + "-wal"))
        let report = try await ledger.purge(PurgeRequest(checkInsBefore: WallTime(seconds: Self.start + 400), refusalsBefore: WallTime(seconds: Self.start),
                                                   keepsCounts: true, dryRun: true))
        #expect(report == PurgeReport(checkIns: 400, refusals: 0))
        #expect(Self.bytes(path) == before.0 && Self.bytes(path + "-wal") == before.1, "the files are unchanged")
        #expect(try await ledger.count(CheckInQuery()) == 500)
        #expect(try await ledger.keptCounts(venue: nil).isEmpty)
    }

    @Test func aVersionOneLedgerIsMigratedAndKeepsItsRows() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        // A ledger as the first release made it: schema 1 only.
        try await SQLiteLedgerTests.query(path, "PRAGMA application_id = \(0x5152_4349)", create: true)
        try await SQLiteLedgerTests.query(path, LedgerSchema.migrationsTable)
        for statement in LedgerSchema.migrations[0].statements(for: .sqlite) { try await SQLiteLedgerTests.query(path, statement) }
        try await SQLiteLedgerTests.query(path, "INSERT INTO schema_migrations VALUES (1, 'v1', 0)")
        try await SQLiteLedgerTests.query(path, "INSERT INTO checkins (venue, at_ms, method) VALUES ('HALL-1', 1000, 'staff')")
        // A phone's check-in and its claim, as version 1 keyed it (venue first).
        try await SQLiteLedgerTests.query(path, "INSERT INTO checkins (venue, at_ms, method, device) VALUES ('HALL-1', 5000, 'qr', 'phone')")
        try await SQLiteLedgerTests.query(path, "INSERT INTO presence (venue, device, at_ms) VALUES ('HALL-1', 'phone', 5000)")
        let ledger = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
        #expect(try await SQLiteLedgerTests.query(path, "SELECT max(version) FROM schema_migrations") == "\(LedgerSchema.latestVersion)")
        #expect(try await ledger.count(CheckInQuery()) == 2)
        // Version 4 made the ledger its key for the ids it shows; the rows keep their row ids.
        #expect(try await SQLiteLedgerTests.query(path, "SELECT count(*) || ' ' || length(key_hex) FROM ledger_keys") == "1 64")
        #expect(try await SQLiteLedgerTests.query(path, "SELECT group_concat(id) FROM checkins") == "1,2")
        // Version 3 keys presence and the device index by device: the claim came along, so the
        // phone scanning again within the duplicate time is still told of its first check-in.
        #expect(try await SQLiteLedgerTests.query(path, "SELECT group_concat(name) FROM pragma_index_list('checkins')") == "checkins_open,checkins_device_at,checkins_at")
        guard case .duplicate(let earlier) = try await ledger.record(SQLiteLedgerTests.entry("phone", at: 30), duplicateSeconds: 60) else {
            Issue.record("the migrated claim was lost")
            return
        }
        #expect(earlier.time == WallTime(milliseconds: 5000))
        // Version 6 gave visits exits: the old rows have none, so they are open, but a count at
        // their venue's max-stay leaves them out, and the server's pass ends them at entry plus it.
        #expect(try await ledger.occupancy(venue: nil, openSince: nil) == [Self.hall: 2])
        #expect(try await ledger.occupancy(venue: Self.hall, openSince: WallTime(milliseconds: 6000)) == [:])
        let ended = try await ledger.checkOut(CheckOutRequest(.overstayed(Self.hall, maxStaySeconds: 3600), at: WallTime(seconds: 7200), kind: .automatic))
        #expect(ended.closed == 2)
        #expect(try await ledger.occupancy(venue: nil, openSince: nil).isEmpty)
        #expect(try await SQLiteLedgerTests.query(path, "SELECT group_concat(exit_ms || ' ' || exit_kind) FROM checkins")
                == "3601000 automatic,3605000 automatic")
        _ = try await ledger.purge(PurgeRequest(checkInsBefore: WallTime(seconds: 10), refusalsBefore: WallTime(seconds: 10), keepsCounts: true))
        #expect(try await ledger.keptCounts(venue: nil) == [DailyCount(venue: Self.hall, day: CalendarDay(daysSince1970: 0), count: 2)])
    }

    /// Migration 13 (issue 38) on a ledger at version 12 with open visits: `checkins_open` is
    /// (time, id, venue) after it, and every venue's open visits and one venue's are paged in the
    /// port's order (time, id) across ties of time, each page's plan without a sort.
    @Test func aVersionTwelveLedgerGetsTheOpenVisitsIndexByTimeAndID() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        let other = OpenVisitsIndexFixture.other
        try await OpenVisitsIndexFixture.fill(SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared))
        // Back to version 12: the index as migration 6 made it, migration 13 not recorded.
        try await SQLiteLedgerTests.query(path, "DROP INDEX checkins_open")
        try await SQLiteLedgerTests.query(path, "CREATE INDEX checkins_open ON checkins (at_ms, venue) WHERE exit_ms IS NULL")
        try await SQLiteLedgerTests.query(path, "DELETE FROM schema_migrations WHERE version >= 13")
        let ledger = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
        #expect(try await SQLiteLedgerTests.query(path, "SELECT max(version) FROM schema_migrations") == "\(LedgerSchema.latestVersion)")
        #expect(try await SQLiteLedgerTests.query(path, "SELECT group_concat(name) FROM pragma_index_info('checkins_open')") == "at_ms,id,venue")
        #expect(try await SQLiteLedgerTests.query(path, "SELECT sql FROM sqlite_schema WHERE name = 'checkins_open'")?.hasSuffix("WHERE exit_ms IS NULL") == true)
        for (venue, paged, expected) in try await OpenVisitsIndexFixture.pages(ledger) {
            #expect(paged == expected && !expected.isEmpty, "\(venue?.rawValue ?? "every venue")")
        }
        #expect(try await ledger.occupancy(venue: nil, openSince: nil) == [Self.hall: 24, other: 14])
        for atVenue in [false, true] {
            for after in [false, true] {
                let sql = SQLDialect.sqlite.render(LedgerSchema.selectOpenPage(atVenue: atVenue, after: after))
                let plan = try SQLiteLedgerTests.plan(path, sql)
                #expect(plan.contains("checkins_open") && !plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
            }
        }
    }
}
