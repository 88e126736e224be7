import Glibc
import ServerDomain
import ServerLedgerSQL
import ServerSQLite
import SharedDomain
import Testing

/// `qrcheckin-server backup`'s parts on a real SQLite ledger: the copy holds every committed
/// check-in, passes its check, is one file of mode 0600 and never lands on a taken name; the
/// audit entry is committed before the copy (so the copy holds it), and a copy refused for its
/// name is not audited.
struct SQLiteBackupTests {
    static let hall = try! VenueID("HALL-1")

    @Test func aCopyHoldsEveryCommittedCheckInAndItsOwnAuditEntry() async throws {
        let directory = TemporaryDirectory()
        let ledger = try SQLiteLedgerTests.ledger(directory)
        for second in 0..<50 {
            _ = try await ledger.record(NewCheckIn(venue: Self.hall, time: WallTime(seconds: 1_796_029_200 + Int64(second)), method: .staff,
                                                   windowAge: nil, device: nil), rules: AdmissionRules(duplicateSeconds: 0))
        }
        let path = directory.file("copy.db")
        let target = try BackupTarget(path, replacing: false)
        let backup = LedgerBackup(trail: AuditTrail(ledger: ledger, actor: .shell("root"), clock: FixedClock()), log: ledger)
        let report = try await backup.run(destination: path, how: "sqlite online backup") { () async throws(LedgerError) in
            try await SQLiteBackup.copy(ledger, to: target)
        }
        #expect(report.checkIns == 50 && report.schemaVersion == LedgerSchema.latestVersion)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(access(path + "-wal", F_OK) != 0, "one file")
        #expect(try SQLiteBackup.verify(path).checkIns == 50)
        let copy = try await SQLiteLedger.open(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
        let entries = try await copy.audit(AuditQuery())
        #expect(entries.first?.action == .backup && entries.first?.subject == "file \(path)" && entries.first?.rows == 50)
    }

    @Test func aTakenNameIsRefusedBeforeAnythingIsReadOrAudited() async throws {
        let directory = TemporaryDirectory()
        let ledger = try SQLiteLedgerTests.ledger(directory)
        let path = directory.file("taken.db")
        let file = open(path, O_CREAT | O_WRONLY, 0o600)
        close(file)
        #expect(throws: LedgerError.self) { try BackupTarget(path, replacing: false) }
        #expect(try await ledger.audit(AuditQuery()).isEmpty)
        _ = try BackupTarget(path, replacing: true)
    }
}
