import Dispatch
import ServerDomain
import ServerLedgerContract
import ServerLedgerSQL
import ServerPostgres
import SharedDomain
import Synchronization
import Testing

/// A clock stopped at one moment (migrations record when they ran).
struct FixedClock: WallClock {
    func now() -> WallTime { WallTime(seconds: 1_796_029_200) }
}

/// The PostgreSQL ledger keeps the ledger contract on a real PostgreSQL (a cluster the tests
/// start themselves), and PostgreSQL's own promises: one schema however many servers start at
/// once, another program's tables left alone, values sent as values.
struct PostgresLedgerTests {
    static let hall = try! VenueID("HALL-1")

    /// A ledger on a new, empty database of the shared cluster; and the database's name.
    static func freshLedger(poolSize: Int = 4) throws -> (PostgresLedger, String) {
        let cluster = PostgresCluster.shared
        let database = try cluster.createDatabase()
        return (try PostgresLedger(PostgresConnectionString(cluster.uri(database)), poolSize: poolSize, clock: FixedClock()), database)
    }

    static func entry(_ device: String?, at seconds: Int64, visitor: Visitor? = nil) -> NewCheckIn {
        NewCheckIn(venue: hall, time: WallTime(seconds: seconds), method: .qr, windowAge: 0, device: device.flatMap(DeviceID.init), visitor: visitor)
    }

    @Test(arguments: LedgerContract.cases)
    func contract(_ rule: LedgerContract.Case) throws {
        try rule.run(on: try Self.freshLedger().0)
    }

    @Test(arguments: AccountContract.cases)
    func accounts(_ rule: AccountContract.Case) throws {
        try rule.run(on: try Self.freshLedger().0)
    }

    @Test(arguments: APITokenContract.cases)
    func tokens(_ rule: APITokenContract.Case) async throws {
        try await rule.run(on: try Self.freshLedger().0)
    }

    /// Opened again is a new `PostgresLedger` on the same database (another server, a
    /// command); another ledger is another database of the cluster.
    @Test(arguments: LedgerContract.storageCases)
    func storage(_ rule: LedgerContract.StorageCase) throws {
        let cluster = PostgresCluster.shared
        let uri = try PostgresConnectionString(cluster.uri(try cluster.createDatabase()))
        let other = try PostgresConnectionString(cluster.uri(try cluster.createDatabase()))
        try rule.run(on: LedgerContract.Storage(
            open: { () throws(LedgerError) in try PostgresLedger(uri, poolSize: 2, clock: FixedClock()) },
            openAnother: { () throws(LedgerError) in try PostgresLedger(other, poolSize: 2, clock: FixedClock()) }))
    }

    @Test func twoServersRecordingOneDeviceAtOnceMakeOneRow() throws {
        let cluster = PostgresCluster.shared
        let database = try cluster.createDatabase()
        let servers = try (0..<2).map { _ in
            try PostgresLedger(PostgresConnectionString(cluster.uri(database)), poolSize: 8, clock: FixedClock())
        }
        let outcomes = Mutex<[Result<RecordOutcome, LedgerError>]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let result = Result { () throws(LedgerError) in
                try servers[index % 2].record(Self.entry("phone", at: 1000 + Int64(index % 3)), duplicateSeconds: 3600)
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        let recorded = results.filter { if case .success(.recorded) = $0 { true } else { false } }
        #expect(recorded.count == 1)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let ids = Set(results.compactMap { try? $0.get().checkIn.id })
        #expect(ids.count == 1, "every answer names the one check-in")
        #expect(try cluster.execute("SELECT count(*) FROM checkins", in: database) == "1")
    }

    @Test func recordsAnsweredThroughACompletionRunOnTheLedgersThreadsAndCommitFirst() throws {
        let (ledger, database) = try Self.freshLedger(poolSize: 4)
        let outcomes = Mutex<[Result<RecordOutcome, LedgerError>]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<200 {
            // Half of them one device (one check-in), the rest a device each.
            let device = index % 2 == 0 ? "shared" : "d\(index)"
            ledger.record(Self.entry(device, at: 1000), duplicateSeconds: 3600) { result in
                outcomes.withLock { $0.append(result) }
                done.signal()
            }
        }
        for _ in 0..<200 { #expect(done.wait(timeout: .now() + 60) == .success) }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 200, "every completion ran once")
        #expect(results.filter { if case .success(.recorded) = $0 { true } else { false } }.count == 101)
        // Each completion ran after its commit: the rows are there now.
        #expect(try cluster.execute("SELECT count(*) FROM checkins", in: database) == "101")
    }

    @Test func serversStartingTogetherMigrateOnce() throws {
        let cluster = PostgresCluster.shared
        let database = try cluster.createDatabase()
        let failures = Mutex<[LedgerError]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do throws(LedgerError) {
                _ = try PostgresLedger(PostgresConnectionString(cluster.uri(database)), poolSize: 1, clock: FixedClock())
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        // Each migration applied once, however many servers raced to apply it.
        #expect(try cluster.execute("SELECT count(*) FROM schema_migrations", in: database) == "\(LedgerSchema.migrations.count)")
        // One key for the ids every server shows.
        #expect(try cluster.execute("SELECT count(*) FROM ledger_keys", in: database) == "1")
    }

    @Test func valuesAreSentAsValuesWhateverTheirBytes() throws {
        let (ledger, database) = try Self.freshLedger()
        let names = ["O'Brien", "Robert'); DROP TABLE checkins; --", "back\\slash \"quoted\" $1 ?1 %s", "김민지 🎫", ""]
        var ids: [Int64] = []
        for (index, name) in names.enumerated() {
            let outcome = try ledger.record(Self.entry("d\(index)", at: Int64(index), visitor: Visitor(name: name, phone: nil)), duplicateSeconds: 0)
            ids.append(outcome.checkIn.id)
        }
        for (id, name) in zip(ids, names) {
            #expect(try ledger.find(id: id)?.entry.visitor?.name == (name.isEmpty ? nil : name))
        }
        // PostgreSQL's text cannot hold NUL: refused as a failure, nothing recorded, nothing broken.
        #expect(throws: LedgerError.self) {
            try ledger.record(Self.entry("nul", at: 100, visitor: Visitor(name: "a\u{0}b", phone: nil)), duplicateSeconds: 0)
        }
        #expect(try ledger.count(CheckInQuery()) == names.count)
        #expect(try cluster.execute("SELECT count(*) FROM checkins", in: database) == "\(names.count)")
    }

    private var cluster: PostgresCluster { .shared }

    @Test func anotherProgramsTablesAreLeftAlone() throws {
        let database = try cluster.createDatabase()
        // Rails and others keep a table of this name too.
        try cluster.execute("CREATE TABLE schema_migrations (version VARCHAR PRIMARY KEY)", in: database)
        do {
            _ = try PostgresLedger(PostgresConnectionString(cluster.uri(database)), clock: FixedClock())
            Issue.record("adopted another program's schema_migrations")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains("not a qrcheckin-server ledger"))
        }
        #expect(try cluster.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", in: database) == "1")
    }

    @Test func aNewerSchemaIsRefusedAndAnOlderOneNeedsMigrate() throws {
        let (_, database) = try Self.freshLedger()
        let uri = try PostgresConnectionString(cluster.uri(database))
        try cluster.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)", in: database)
        #expect { try PostgresLedger(uri, clock: FixedClock()) } throws: { ($0 as? LedgerError)?.kind == .tooNew }
        try cluster.execute("DELETE FROM schema_migrations", in: database)
        #expect { try PostgresLedger(uri, migrate: false, clock: FixedClock()) } throws: {
            ($0 as? LedgerError)?.message.contains("run qrcheckin-server migrate") ?? false
        }
    }

    @Test func aMissingDatabaseIsMissingAndNoPasswordIsEverRepeated() throws {
        let missing = try PostgresConnectionString(cluster.uri("no_such_database") + "&password=hunter2-secret")
        do {
            _ = try PostgresLedger(missing, clock: FixedClock())
            Issue.record("connected to a database that does not exist")
        } catch {
            #expect(error.kind == .missing)
            #expect(!error.message.contains("hunter2"))
        }
        #expect(!missing.description.contains("hunter2"))
        #expect(missing.description.contains("dbname=no_such_database"))
        for text in ["postgresql://user:hunter2-secret@host/db?sslmode=%zz", "host=db password=hunter2-secret sslmode"] {
            do {
                _ = try PostgresConnectionString(text)
                Issue.record("accepted a malformed string")
            } catch {
                #expect(!error.message.contains("hunter2"))
            }
        }
        // Without a password, libpq's words are kept whole: they name what is wrong.
        #expect { try PostgresConnectionString("host=db sslmod=require") } throws: {
            ($0 as? LedgerError)?.message.contains("\"sslmod\"") ?? false
        }
    }

    @Test func databaseSettingsSelectPostgresByScheme() throws {
        #expect(try PostgresConnectionString(databaseSetting: "sqlite:/var/lib/x.db") == nil)
        #expect(try PostgresConnectionString(databaseSetting: "postgresql://db.example/checkins?sslmode=verify-full")?.text
            == "postgresql://db.example/checkins?sslmode=verify-full")
        #expect(try PostgresConnectionString(databaseSetting: "postgresql:host=/run/postgresql dbname=checkins")?.text
            == "host=/run/postgresql dbname=checkins")
        #expect(throws: LedgerError.self) { try PostgresConnectionString(databaseSetting: "postgresql:host") }
    }
}
