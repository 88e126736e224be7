import Glibc
import ServerLedgerContract
import ServerDomain
import ServerPostgres
import ServerSQLite
import SharedDomain
import Testing

/// A venue that outgrows one host keeps its log: its SQLite history copied into PostgreSQL,
/// once however often the copy runs, with the duplicate keys.
struct LedgerCopyTests {
    static let hall = PostgresLedgerTests.hall
    static let cafe = try! VenueID("CAFE")

    /// A SQLite ledger with 6 check-ins at HALL-1 (two of them identical staff entries) and 2 at CAFE.
    static func source(in directory: String) throws -> SQLiteLedger {
        let ledger = try SQLiteLedger(path: directory + "/checkins.db", create: true, clock: FixedClock())
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
        for entry in entries { _ = try ledger.record(entry, duplicateSeconds: 3600) }
        return ledger
    }

    static func rows(_ ledger: any CheckInLedger, _ query: CheckInQuery = CheckInQuery()) throws -> [NewCheckIn] {
        var rows: [NewCheckIn] = []
        try ledger.export(query) { rows.append($0.entry); return true }
        return rows
    }

    @Test func copyingTwiceGivesTheSourcesCountWithNoDuplicates() throws {
        let directory = TemporaryDirectory()
        let source = try Self.source(in: directory.path)
        let cluster = PostgresCluster.shared
        let database = try cluster.createDatabase()
        let target = try PostgresLedger(PostgresConnectionString(cluster.uri(database)), clock: FixedClock())
        let first = try target.copy(from: source, venue: nil)
        #expect(first == LedgerCopyReport(source: 8, copied: 8, alreadyThere: 0, destination: 8))
        let second = try target.copy(from: source, venue: nil)
        #expect(second == LedgerCopyReport(source: 8, copied: 0, alreadyThere: 8, destination: 8))
        #expect(try Self.rows(target) == Self.rows(source), "every column of every check-in, in order, the identical staff entries twice")
        #expect(try cluster.execute("SELECT count(*) FROM checkins", in: database) == "8")
        // The duplicate keys came along: device a checked in at HALL-1 at 4000 s.
        let again = NewCheckIn(venue: Self.hall, time: WallTime(seconds: 4100), method: .qr, windowAge: 0, device: DeviceID("a"))
        guard case .duplicate(of: let earlier) = try target.record(again, duplicateSeconds: 3600) else {
            Issue.record("a device that checked in on the old host is not a duplicate on the new one")
            return
        }
        #expect(earlier.time == WallTime(seconds: 4000))
    }

    @Test func oneVenueIsCopiedAndWhatServersRecordedMeanwhileIsKept() throws {
        let directory = TemporaryDirectory()
        let source = try Self.source(in: directory.path)
        let cluster = PostgresCluster.shared
        let target = try PostgresLedger(PostgresConnectionString(cluster.uri(try cluster.createDatabase())), clock: FixedClock())
        let live = NewCheckIn(venue: Self.cafe, time: WallTime(seconds: 9000), method: .qr, windowAge: 0, device: DeviceID("z"))
        _ = try target.record(live, duplicateSeconds: 3600)
        let report = try target.copy(from: source, venue: Self.cafe)
        #expect(report == LedgerCopyReport(source: 2, copied: 2, alreadyThere: 0, destination: 3))
        #expect(try target.count(CheckInQuery(venue: Self.hall)) == 0)
        #expect(try Self.rows(target) == Self.rows(source, CheckInQuery(venue: Self.cafe)) + [live])
        #expect(try target.copy(from: source, venue: Self.cafe).copied == 0)
    }
}
