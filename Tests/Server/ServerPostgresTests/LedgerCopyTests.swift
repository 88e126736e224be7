import Glibc
import ServerLedgerContract
import ServerDomain
import ServerPostgres
import ServerSQLite
import SharedDomain
import SharedSystem
import Testing

/// A venue that outgrows one host keeps its log: its SQLite history copied into PostgreSQL,
/// once however often the copy runs, with the duplicate keys.
struct LedgerCopyTests {
    static let hall = PostgresLedgerTests.hall
    static let cafe = try! VenueID("CAFE")

    /// A SQLite ledger with 6 check-ins at HALL-1 (two of them identical staff entries) and 2 at CAFE.
    static func source(in directory: String) async throws -> SQLiteLedger {
        let ledger = try await SQLiteLedger(path: directory + "/checkins.db", create: true, clock: FixedClock(), pool: TestPool.shared)
        let staff = NewCheckIn(venue: hall, time: WallTime(seconds: 500), method: .staff, windowAge: nil, device: nil,
                               visitor: Visitor(name: "Kim", phone: nil), operatorName: "door")
        let entries = [
            NewCheckIn(venue: hall, time: WallTime(seconds: 100), method: .qr, windowAge: 0, device: DeviceID("a")),
            NewCheckIn(venue: hall, time: WallTime(seconds: 200), method: .safeNumber, windowAge: 1, device: DeviceID("b"),
                       visitor: Visitor(name: "이 O'Brien", phone: "010-1234-5678")),
            NewCheckIn(venue: cafe, time: WallTime(seconds: 300), method: .qr, windowAge: -1, device: DeviceID("a")),
            staff, staff,
            NewCheckIn(venue: hall, time: WallTime(seconds: 600), method: .qr, windowAge: 0, device: DeviceID("c")),
            NewCheckIn(venue: cafe, time: WallTime(seconds: 700), method: .qr, windowAge: 0, device: DeviceID("c")),
            NewCheckIn(venue: hall, time: WallTime(seconds: 4000), method: .qr, windowAge: 0, device: DeviceID("a")),
        ]
        for entry in entries { _ = try await ledger.record(entry, duplicateSeconds: 3600) }
        return ledger
    }

    static func rows(_ ledger: any VisitLog, _ query: CheckInQuery = CheckInQuery()) async throws -> [NewCheckIn] {
        try await checkIns(ledger, query).map(\.entry)
    }

    static func checkIns(_ ledger: any VisitLog, _ query: CheckInQuery = CheckInQuery()) async throws -> [CheckIn] {
        var rows: [CheckIn] = []
        try await ledger.eachCheckIn(query) { rows.append($0); return true }
        return rows
    }

    /// The cipher of the ledger in `database`, from the key it keeps.
    static func ids(of database: String) async throws -> CheckInIDCipher {
        try await CheckInIDCipher(storedKey: PostgresCluster.shared.execute("SELECT key_hex FROM ledger_keys", in: database),
                            authenticator: HMACAuthenticator(), ledger: database)
    }

    /// A new empty PostgreSQL ledger to copy into, and its database's name.
    static func target() async throws -> (PostgresLedger, String) {
        let database = try await PostgresCluster.shared.createDatabase()
        return (try await PostgresLedger.open(PostgresConnectionString(PostgresCluster.shared.uri(database)), clock: FixedClock(), blocking: TestPool.shared), database)
    }

    @Test func exitsComeAlongAndAVisitThatEndedHoldsNoDuplicateKey() async throws {
        let directory = TemporaryDirectory()
        let source = try await Self.source(in: directory.path)
        let visit = try await #require(try await Self.checkIns(source, CheckInQuery(venue: Self.hall, device: DeviceID("a"))).last)
        _ = try await source.checkOut(CheckOutRequest(.checkIn(visit.id), at: WallTime(seconds: 4100), kind: .kiosk))
        let (target, _) = try await Self.target()
        _ = try await target.copy(from: source, venue: nil)
        let copied = try await #require(try await target.find(id: visit.id))
        #expect(copied.exit == VisitExit(time: WallTime(seconds: 4100), kind: .kiosk))
        let again = try await target.record(NewCheckIn(venue: Self.hall, time: WallTime(seconds: 4200), method: .qr, windowAge: 0,
                                                 device: DeviceID("a")), duplicateSeconds: 3600)
        guard case .recorded = again else { Issue.record("a device that checked out starts a new visit: \(again)"); return }
    }

    @Test func copyingTwiceGivesTheSourcesCountWithNoDuplicates() async throws {
        let directory = TemporaryDirectory()
        let source = try await Self.source(in: directory.path)
        let (target, database) = try await Self.target()
        let first = try await target.copy(from: source, venue: nil)
        #expect(first == LedgerCopyReport(source: 8, copied: 8, alreadyThere: 0, destination: 8))
        let second = try await target.copy(from: source, venue: nil)
        #expect(second == LedgerCopyReport(source: 8, copied: 0, alreadyThere: 8, destination: 8))
        #expect(try await Self.rows(target) == Self.rows(source), "every column of every check-in, in order, the identical staff entries twice")
        // Each keeps the id it showed: a visitor's receipt number opens and erases it here too.
        // (Sorted: within one millisecond rows go by row id, which here is the key's.)
        let copied = try await Self.checkIns(source)
        #expect(try await Self.checkIns(target).sorted { $0.id < $1.id } == copied.sorted { $0.id < $1.id })
        #expect(try await target.find(id: copied[1].id) == copied[1])
        #expect(try await target.checkIns(of: .checkIn(copied[1].id)) == [copied[1]])
        #expect(try await PostgresCluster.shared.execute("SELECT count(*) FROM checkins", in: database) == "8")
        // The duplicate keys came along: device a checked in at HALL-1 at 4000 s.
        let again = NewCheckIn(venue: Self.hall, time: WallTime(seconds: 4100), method: .qr, windowAge: 0, device: DeviceID("a"))
        guard case .duplicate(of: let earlier) = try await target.record(again, duplicateSeconds: 3600) else {
            Issue.record("a device that checked in on the old host is not a duplicate on the new one")
            return
        }
        #expect(earlier.time == WallTime(seconds: 4000))
    }

    @Test func oneVenueIsCopiedAndWhatServersRecordedMeanwhileIsKept() async throws {
        let directory = TemporaryDirectory()
        let source = try await Self.source(in: directory.path)
        let (target, _) = try await Self.target()
        let live = NewCheckIn(venue: Self.cafe, time: WallTime(seconds: 9000), method: .qr, windowAge: 0, device: DeviceID("z"))
        _ = try await target.record(live, duplicateSeconds: 3600)
        let report = try await target.copy(from: source, venue: Self.cafe)
        #expect(report == LedgerCopyReport(source: 2, copied: 2, alreadyThere: 0, destination: 3))
        #expect(try await target.count(CheckInQuery(venue: Self.hall)) == 0)
        #expect(try await Self.rows(target) == Self.rows(source, CheckInQuery(venue: Self.cafe)) + [live])
        #expect(try await target.copy(from: source, venue: Self.cafe).copied == 0)
        #expect(Set(try await Self.checkIns(target).map(\.id)).isSuperset(of: try await Self.checkIns(source, CheckInQuery(venue: Self.cafe)).map(\.id)),
                "the copied keep their ids beside the one recorded here")
    }

    /// Two keys can give one id (about once in 2^48 pairs of rows): the check-in recorded here
    /// keeps it, the copied one shows a new one, and the report says so.
    @Test func aCopiedCheckInWhoseIDIsTakenGetsANewOne() async throws {
        let directory = TemporaryDirectory()
        let source = try await Self.source(in: directory.path)
        let (target, database) = try await Self.target()
        let taken = try await Self.checkIns(source)[5]
        // A row here at the row id that shows the source's id, as if recorded under this key.
        let row = try await #require(try await Self.ids(of: database).rowID(shown: taken.id))
        try await PostgresCluster.shared.execute("INSERT INTO checkins (id, venue, at_ms, method) VALUES (\(row), 'CAFE', 1, 'staff')", in: database)
        let report = try await target.copy(from: source, venue: nil)
        #expect(report == LedgerCopyReport(source: 8, copied: 8, alreadyThere: 0, destination: 9, renumbered: 1))
        let here = try await Self.checkIns(target)
        #expect(here.filter { $0.entry == taken.entry }.count == 1 && !here.contains(taken), "copied, with a new id")
        #expect(try await target.find(id: taken.id)?.time == WallTime(milliseconds: 1), "the id still names the row that held it")
        #expect(Set(here.map(\.id)).isSuperset(of: try await Self.checkIns(source).filter { $0 != taken }.map(\.id)), "the others keep theirs")
    }

    /// The identity gives small row ids; one an imported check-in holds is skipped, and the
    /// visitor whose check-in met it is recorded all the same.
    @Test func recordingSkipsARowIDAnImportedCheckInHolds() async throws {
        let (ledger, database) = try await PostgresLedgerTests.freshLedger()
        let first = try await ledger.record(PostgresLedgerTests.entry("a", at: 100), duplicateSeconds: 60).checkIn
        // Row 2 (the identity's next) and 3 held, as rows a copy placed there.
        for row in 2...3 {
            try await PostgresCluster.shared.execute("INSERT INTO checkins (id, venue, at_ms, method) VALUES (\(row), 'CAFE', 1, 'staff')", in: database)
        }
        let second = try await ledger.record(PostgresLedgerTests.entry("b", at: 101), duplicateSeconds: 60).checkIn
        let third = try await ledger.record(PostgresLedgerTests.entry(nil, at: 102), duplicateSeconds: 60).checkIn
        #expect(try await ledger.find(id: second.id) == second)
        #expect(try await ledger.find(id: third.id) == third)
        #expect(try await ledger.find(id: first.id) == first)
        #expect(try await PostgresCluster.shared.execute("SELECT string_agg(id::text, ',' ORDER BY id) FROM checkins", in: database) == "1,2,3,4,5")
        guard case .duplicate(of: second) = try await ledger.record(PostgresLedgerTests.entry("b", at: 130), duplicateSeconds: 60) else {
            Issue.record("the claim of the retried check-in was kept once")
            return
        }
    }
}
