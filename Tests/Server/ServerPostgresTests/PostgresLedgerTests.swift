import ServerDomain
import ServerLedgerContract
import ServerLedgerSQL
import ServerPostgres
import SharedDomain
import SharedJSON
import SharedTesting
import Synchronization
import Testing

/// A clock stopped at one moment (migrations record when they ran).
struct FixedClock: WallClock {
    func now() -> WallTime { WallTime(seconds: 1_796_029_200) }
}

/// The PostgreSQL ledger keeps every port's contract on a real PostgreSQL (a cluster the tests
/// start themselves), and PostgreSQL's own promises: one schema however many servers start at
/// once, another program's tables left alone, values sent as values.
struct PostgresLedgerTests {
    @Test(arguments: KioskFleetContract.cases)
    func kiosks(_ rule: KioskFleetContract.Case) async throws {
        try await rule.run(on: KioskFleetContract.subject(try await Self.freshLedger().0))
    }

    /// Two servers on one database see one fleet: a report taken by one is listed by the
    /// other, and its copy sent to the other is refused there.
    @Test func twoServersSeeOneFleetAndRefuseOneCopy() async throws {
        let cluster = PostgresCluster.shared
        let database = try await cluster.createDatabase()
        var servers: [PostgresLedger] = []
        for _ in 0..<2 {
            servers.append(try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: 2, clock: FixedClock(),
                                                         blocking: TestPool.shared))
        }
        let venue = try VenueID("HALL-1"), kiosk = try KioskName("door-1")
        let report = KioskReport(venue: venue, kiosk: kiosk, version: "0.1.0", reportInterval: 30, wallClock: 1_000_000,
                                 status: .running, summary: "running", daemon: nil)
        let real = KioskReceipt(report: report, body: report.bodyBytes, nonce: ReportNonce(bytes: Array(repeating: 7, count: 16)),
                                signedAt: 1_000_000, receivedAt: WallTime(milliseconds: 1_000_000))
        #expect(try await servers[0].receive(real, replayWindowMilliseconds: 300_000) == .stored(pending: nil))
        #expect(try await servers[1].kiosks(venue: nil).map(\.key) == [KioskKey(venue: venue, name: kiosk)])
        #expect(try await servers[1].receive(real, replayWindowMilliseconds: 300_000) == .replayed)
    }
    static let hall = try! VenueID("HALL-1")

    /// A ledger on a new, empty database of the shared cluster; and the database's name.
    static func freshLedger(poolSize: Int = 4) async throws -> (PostgresLedger, String) {
        let cluster = PostgresCluster.shared
        let database = try await cluster.createDatabase()
        return (try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: poolSize, clock: FixedClock(), blocking: TestPool.shared), database)
    }

    static func entry(_ device: String?, at seconds: Int64, visitor: Visitor? = nil) -> NewCheckIn {
        NewCheckIn(venue: hall, time: WallTime(seconds: seconds), method: .qr, windowAge: 0, device: device.flatMap(DeviceID.init), visitor: visitor)
    }

    // Each port's contract.

    @Test(arguments: LedgerContract.visitLedger)
    func visits(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: LedgerContract.visitLog)
    func log(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    /// Issue 40's webhooks: endpoints, the outbox in the check-ins' transactions, claims
    /// (FOR UPDATE SKIP LOCKED and the lease).
    @Test(arguments: WebhookContract.cases)
    func webhooks(_ rule: WebhookContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: LedgerContract.refusalLog)
    func refusals(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: LedgerContract.auditLog)
    func audit(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: LedgerContract.erasure)
    func erasure(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: LedgerContract.transactions)
    func transactions(_ rule: LedgerContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: VisitFlowContract.cases)
    func visitFlow(_ rule: VisitFlowContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: AccountContract.cases)
    func accounts(_ rule: AccountContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    @Test(arguments: APITokenContract.cases)
    func tokens(_ rule: APITokenContract.Case) async throws {
        try await rule.run(on: try await Self.freshLedger().0)
    }

    /// Opened again is a new `PostgresLedger` on the same database (another server, a
    /// command); another ledger is another database of the cluster.
    @Test(arguments: LedgerContract.storageCases)
    func storage(_ rule: LedgerContract.StorageCase) async throws {
        let cluster = PostgresCluster.shared
        let uri = try await PostgresConnectionString(cluster.uri(try await cluster.createDatabase()))
        let other = try await PostgresConnectionString(cluster.uri(try await cluster.createDatabase()))
        try await rule.run(on: LedgerContract.Storage(
            open: { () async throws(LedgerError) in try await PostgresLedger.open(uri, poolSize: 2, clock: FixedClock(), blocking: TestPool.shared) },
            openAnother: { () async throws(LedgerError) in try await PostgresLedger.open(other, poolSize: 2, clock: FixedClock(), blocking: TestPool.shared) }))
    }

    @Test func twoServersRecordingOneDeviceAtOnceMakeOneRow() async throws {
        let cluster = PostgresCluster.shared
        let database = try await cluster.createDatabase()
        let servers = try await (0..<2).asyncMap { _ in
            try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: 8, clock: FixedClock(), blocking: TestPool.shared)
        }
        let outcomes = Mutex<[Result<RecordOutcome, LedgerError>]>([])
        _ = await Array(0..<64).concurrentMap { index in
            let result: Result<RecordOutcome, LedgerError>
            do throws(LedgerError) {
                result = .success(try await servers[index % 2].record(Self.entry("phone", at: 1000 + Int64(index % 3)), duplicateSeconds: 3600))
            } catch {
                result = .failure(error)
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        let recorded = results.filter { if case .success(.recorded) = $0 { true } else { false } }
        #expect(recorded.count == 1)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let ids = Set(results.compactMap { try? $0.get().checkIn.id })
        #expect(ids.count == 1, "every answer names the one check-in")
        #expect(try await cluster.execute("SELECT count(*) FROM checkins", in: database) == "1")
    }

    @Test func recordsAnsweredConcurrentlyCommitFirst() async throws {
        let (ledger, database) = try await Self.freshLedger(poolSize: 4)
        let outcomes = Mutex<[Result<RecordOutcome, LedgerError>]>([])
        _ = await Array(0..<200).concurrentMap { index in
            // Half of them one device (one check-in), the rest a device each.
            let device = index % 2 == 0 ? "shared" : "d\(index)"
            let result: Result<RecordOutcome, LedgerError>
            do throws(LedgerError) {
                result = .success(try await ledger.record(Self.entry(device, at: 1000), duplicateSeconds: 3600))
            } catch {
                result = .failure(error)
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 200, "every call was answered once")
        #expect(results.filter { if case .success(.recorded) = $0 { true } else { false } }.count == 101)
        // Each answer came after its commit: the rows are there now.
        #expect(try await cluster.execute("SELECT count(*) FROM checkins", in: database) == "101")
    }

    @Test func serversStartingTogetherMigrateOnce() async throws {
        let cluster = PostgresCluster.shared
        let database = try await cluster.createDatabase()
        let failures = Mutex<[LedgerError]>([])
        _ = await Array(0..<6).concurrentMap { _ in
            do throws(LedgerError) {
                _ = try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), poolSize: 1, clock: FixedClock(), blocking: TestPool.shared)
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        // Each migration applied once, however many servers raced to apply it.
        #expect(try await cluster.execute("SELECT count(*) FROM schema_migrations", in: database) == "\(LedgerSchema.migrations.count)")
        // One key for the ids every server shows.
        #expect(try await cluster.execute("SELECT count(*) FROM ledger_keys", in: database) == "1")
    }

    @Test func valuesAreSentAsValuesWhateverTheirBytes() async throws {
        let (ledger, database) = try await Self.freshLedger()
        let names = ["O'Brien", "Robert'); DROP TABLE checkins; --", "back\\slash \"quoted\" $1 ?1 %s", "김민지 🎫", ""]
        var ids: [Int64] = []
        for (index, name) in names.enumerated() {
            let outcome = try await ledger.record(Self.entry("d\(index)", at: Int64(index), visitor: Visitor(name: name, phone: nil)), duplicateSeconds: 0)
            ids.append(outcome.checkIn.id)
        }
        for (id, name) in zip(ids, names) {
            #expect(try await ledger.find(id: id)?.entry.visitor?.name == (name.isEmpty ? nil : name))
        }
        // PostgreSQL's text cannot hold NUL: refused as a failure, nothing recorded, nothing broken.
        await #expect(throws: LedgerError.self) {
            try await ledger.record(Self.entry("nul", at: 100, visitor: Visitor(name: "a\u{0}b", phone: nil)), duplicateSeconds: 0)
        }
        #expect(try await ledger.count(CheckInQuery()) == names.count)
        #expect(try await cluster.execute("SELECT count(*) FROM checkins", in: database) == "\(names.count)")
    }

    private var cluster: PostgresCluster { .shared }

    @Test func anotherProgramsTablesAreLeftAlone() async throws {
        let database = try await cluster.createDatabase()
        // Rails and others keep a table of this name too.
        try await cluster.execute("CREATE TABLE schema_migrations (version VARCHAR PRIMARY KEY)", in: database)
        do {
            _ = try await PostgresLedger.open(PostgresConnectionString(cluster.uri(database)), clock: FixedClock(), blocking: TestPool.shared)
            Issue.record("adopted another program's schema_migrations")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains("not a qrcheckin-server ledger"))
        }
        #expect(try await cluster.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", in: database) == "1")
    }

    @Test func aNewerSchemaIsRefusedAndAnOlderOneNeedsMigrate() async throws {
        let (_, database) = try await Self.freshLedger()
        let uri = try await PostgresConnectionString(cluster.uri(database))
        try await cluster.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)", in: database)
        await #expect { try await PostgresLedger.open(uri, clock: FixedClock(), blocking: TestPool.shared) } throws: { ($0 as? LedgerError)?.kind == .tooNew }
        try await cluster.execute("DELETE FROM schema_migrations", in: database)
        await #expect { try await PostgresLedger.open(uri, migrate: false, clock: FixedClock(), blocking: TestPool.shared) } throws: {
            ($0 as? LedgerError)?.message.contains("run qrcheckin-server migrate") ?? false
        }
    }

    /// Migration 13 (issue 38) on a ledger at version 12 with open visits: `checkins_open` is
    /// (time, id, venue) after it, and every venue's open visits and one venue's page in the
    /// port's order (time, id) across ties of time.
    @Test func aVersionTwelveLedgerGetsTheOpenVisitsIndexByTimeAndID() async throws {
        let (ledger, database) = try await Self.freshLedger()
        let other = OpenVisitsIndexFixture.other
        try await OpenVisitsIndexFixture.fill(ledger)
        // Back to version 12: the index as migration 6 made it, migration 13 not recorded.
        try await cluster.execute("DROP INDEX checkins_open", in: database)
        try await cluster.execute("CREATE INDEX checkins_open ON checkins (at_ms, venue) WHERE exit_ms IS NULL", in: database)
        try await cluster.execute("DELETE FROM schema_migrations WHERE version >= 13", in: database)
        let uri = try await PostgresConnectionString(cluster.uri(database))
        let migrated = try await PostgresLedger.open(uri, clock: FixedClock(), blocking: TestPool.shared)
        #expect(try await cluster.execute("SELECT max(version) FROM schema_migrations", in: database) == "\(LedgerSchema.latestVersion)")
        #expect(try await cluster.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'checkins_open'", in: database)?
            .hasSuffix("(at_ms, id, venue) WHERE (exit_ms IS NULL)") == true)
        for (venue, paged, expected) in try await OpenVisitsIndexFixture.pages(migrated) {
            #expect(paged == expected && !expected.isEmpty, "\(venue?.rawValue ?? "every venue")")
        }
        #expect(try await migrated.occupancy(venue: nil, openSince: nil) == [Self.hall: 24, other: 14])
    }

    @Test func aMissingDatabaseIsMissingAndNoPasswordIsEverRepeated() async throws {
        let missing = try await PostgresConnectionString(cluster.uri("no_such_database") + "&password=hunter2-secret")
        do {
            _ = try await PostgresLedger.open(missing, clock: FixedClock(), blocking: TestPool.shared)
            Issue.record("connected to a database that does not exist")
        } catch {
            #expect(error.kind == .missing)
            #expect(!error.message.contains("hunter2"))
        }
        #expect(!missing.description.contains("hunter2"))
        #expect(missing.description.contains("dbname=no_such_database"))
        for text in ["postgresql://user:hunter2-secret@host/db?sslmode=%zz", "host=db password=hunter2-secret sslmode"] {
            do {
                _ = try await PostgresConnectionString(text)
                Issue.record("accepted a malformed string")
            } catch {
                #expect(!error.message.contains("hunter2"))
            }
        }
        // Without a password, libpq's words are kept whole: they name what is wrong.
        await #expect { try await PostgresConnectionString("host=db sslmod=require") } throws: {
            ($0 as? LedgerError)?.message.contains("\"sslmod\"") ?? false
        }
    }

    @Test func databaseSettingsSelectPostgresByScheme() async throws {
        #expect(try await PostgresConnectionString(databaseSetting: "sqlite:/var/lib/x.db") == nil)
        #expect(try await PostgresConnectionString(databaseSetting: "postgresql://db.example/checkins?sslmode=verify-full")?.text
            == "postgresql://db.example/checkins?sslmode=verify-full")
        #expect(try await PostgresConnectionString(databaseSetting: "postgresql:host=/run/postgresql dbname=checkins")?.text
            == "host=/run/postgresql dbname=checkins")
        await #expect(throws: LedgerError.self) { try await PostgresConnectionString(databaseSetting: "postgresql:host") }
    }
}
