import ServerDomain
import ServerLedgerContract
import SharedDomain
import Synchronization
import Testing

/// The operator actions (`AuditTrail`'s rule): each leaves exactly one audit entry; a change
/// whose entry cannot be written is undone; a read whose entry cannot be written hands nothing out.
struct OperatorActionsTests {
    static let full = LedgerError(.full, "database or disk is full")

    /// A log of three visitors at HALL-1 (Kim with a phone), an hour apart, and a trail of `root` at a shell.
    struct Log {
        let fixture = Fixture()
        var ledger: InMemoryLedger { fixture.ledger }
        var trail: AuditTrail { AuditTrail(ledger: ledger, actor: .shell("root"), clock: fixture.clock) }

        init() throws {
            for (index, name) in ["Kim", "Lee", "Park"].enumerated() {
                _ = try ledger.record(NewCheckIn(venue: Fixture.hall, time: WallTime(seconds: Fixture.start - 3600 * Int64(3 - index)), method: .staff,
                                                 windowAge: nil, device: nil, visitor: Visitor(name: name, phone: name == "Kim" ? "01011112222" : nil),
                                                 operatorName: "door"), duplicateSeconds: 0)
            }
        }

        func entries() throws(LedgerError) -> [AuditEntry] {
            var entries: [AuditEntry] = []
            try ledger.audit(AuditQuery()) { entries.append($0); return true }
            return entries.reversed()
        }

        func rows() throws(LedgerError) -> [CheckIn] {
            var rows: [CheckIn] = []
            try ledger.export(CheckInQuery()) { rows.append($0); return true }
            return rows
        }
    }

    @Test func anExportIsAuditedBeforeItsFirstRowAndHandsOutNoMoreThanItsEntrySays() throws {
        let log = try Log()
        let export = try VisitorLogExport(trail: log.trail).begin(.query(CheckInQuery(venue: Fixture.hall)), detail: "venue=HALL-1 format=csv")
        #expect(try log.entries().map(\.action) == [.export] && export.entry.rows == 3 && export.entry.actor == "root" && export.entry.source == "cli")
        // A check-in recorded after the entry was counted waits for the next export.
        _ = try log.fixture.ledger.record(NewCheckIn(venue: Fixture.hall, time: WallTime(seconds: Fixture.start), method: .staff, windowAge: nil,
                                                     device: nil), duplicateSeconds: 0)
        var names: [String?] = []
        try export.rows { names.append($0.entry.visitor?.name); return true }
        #expect(names == ["Kim", "Lee", "Park"])
        let limited = try VisitorLogExport(trail: log.trail).begin(.query(CheckInQuery(limit: 1)), detail: "limit=1")
        #expect(limited.entry.rows == 1)
        let receipt = try VisitorLogExport(trail: log.trail).begin(.receipt(12345, within: CheckInQuery()), detail: "receipt")
        var none = 0
        try receipt.rows { _ in none += 1; return true }
        #expect(receipt.entry.rows == 0 && none == 0)
        // A receipt's check-in outside the rest of the filter is not handed out.
        let kim = try log.rows()[0]
        let elsewhere = try VisitorLogExport(trail: log.trail).begin(.receipt(kim.id, within: CheckInQuery(venue: try VenueID("CAFE"))), detail: "receipt")
        let here = try VisitorLogExport(trail: log.trail).begin(.receipt(kim.id, within: CheckInQuery(venue: Fixture.hall)), detail: "receipt")
        var found: [Int64] = []
        try elsewhere.rows { found.append($0.id); return true }
        try here.rows { found.append($0.id); return true }
        #expect(elsewhere.entry.rows == 0 && here.entry.rows == 1 && found == [kim.id])
    }

    @Test func onAFullDiskNoReadHandsAnythingOut() throws {
        let log = try Log()
        log.ledger.failWrites(with: Self.full)
        #expect(throws: Self.full) { try VisitorLogExport(trail: log.trail).begin(.query(CheckInQuery()), detail: "format=csv") }
        var shown = 0
        #expect(throws: Self.full) { try VisitorLogExport(trail: log.trail).page(detail: "page") { () throws(LedgerError) in try log.rows() } }
        #expect(throws: Self.full) {
            try EvacuationRoll(trail: log.trail, venues: VenueDirectory()).run(venue: nil, detail: "format=csv") { _ in shown += 1; return true }
        }
        #expect(throws: Self.full) { try Erasure(trail: log.trail).preview(.phone("01011112222"), described: "phone …2222") }
        let kim = try log.rows()[0]
        #expect(throws: Self.full) {
            try OverlapsLookup(trail: log.trail, venues: VenueDirectory()).overlaps(of: kim.id, marginSeconds: 0, detail: "format=csv")
        }
        let entries = try log.entries()
        #expect(shown == 0 && entries.isEmpty)
    }

    @Test func theShellsRollInAnEvacuationListsAllTheSameAndSaysWhy() throws {
        let log = try Log()
        log.ledger.failWrites(with: Self.full)
        let warned = Mutex<[LedgerError]>([])
        var names: [String?] = []
        let entry = try EvacuationRoll(trail: log.trail, venues: VenueDirectory()).run(
            venue: Fixture.hall, detail: "format=csv", unaudited: .listAnyway(warn: { error in warned.withLock { $0.append(error) } })) {
            names.append($0.entry.visitor?.name)
            return true
        }
        #expect(entry == nil && names == ["Kim", "Lee", "Park"] && warned.withLock { $0 } == [Self.full])
    }

    @Test func onAFullDiskNoChangeHappens() throws {
        let log = try Log()
        _ = try log.ledger.addAccount(ConsoleAccount(name: "mina", role: .steward, passwordHash: "x", created: WallTime(seconds: 0)))
        let before = try log.rows()
        log.ledger.failWrites(with: Self.full)
        #expect(throws: Self.full) { try Erasure(trail: log.trail).erase(.phone("01011112222"), described: "phone …2222") }
        #expect(throws: Self.full) { try StaffCheckIn(trail: log.trail).record(venue: Fixture.hall, visitor: nil, profile: nil) }
        #expect(throws: Self.full) { try StaffCheckOut(trail: log.trail).run(.venue(Fixture.hall)) }
        #expect(throws: Self.full) { try AccountChanges(trail: log.trail).change(named: "mina", AccountChange(disabled: true)) }
        #expect(throws: Self.full) { try AccountChanges(trail: log.trail).remove(named: "mina") }
        let policy = RetentionPolicy(checkInSeconds: 3600, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        #expect(throws: Self.full) {
            try LogPurge(trail: log.trail, policy: policy).run(policy.purgeRequest(at: log.fixture.clock.now()), at: log.fixture.clock.now(), always: true)
        }
        log.ledger.failWrites(with: nil)
        let (rows, mina, entries) = (try log.rows(), try log.ledger.account(named: "mina"), try log.entries())
        #expect(rows == before && mina?.disabled == false && entries.isEmpty)
    }

    @Test func eachChangeLeavesOneEntryAndNothingFoundLeavesNone() throws {
        let log = try Log()
        let kim = try log.rows()[0]
        #expect(try Erasure(trail: log.trail).preview(.phone("01011112222"), described: "phone …2222").count == 1)
        #expect(try Erasure(trail: log.trail).erase(.phone("01011112222"), described: "phone …2222") == 1)
        #expect(try StaffCheckOut(trail: log.trail).run(.checkIn(kim.id)).visit == nil, "erased: nothing to end")
        #expect(try StaffCheckOut(trail: log.trail).run(.venue(Fixture.hall)).closed == 2)
        let changes = AccountChanges(trail: log.trail)
        #expect(try changes.add(ConsoleAccount(name: "mina", role: .steward, passwordHash: "x", created: WallTime(seconds: 0))))
        #expect(try !changes.add(ConsoleAccount(name: "mina", role: .admin, passwordHash: "y", created: WallTime(seconds: 0))))
        #expect(try changes.change(named: "mina", AccountChange(role: .admin, passwordHash: "z")))
        #expect(try !changes.change(named: "nobody", AccountChange(disabled: true)))
        #expect(try changes.remove(named: "mina"))
        #expect(try !changes.remove(named: "mina"))
        let entries = try log.entries()
        #expect(entries.map(\.action) == [.erasePreview, .erase, .staffCheckOut, .accountAdded, .accountChanged, .accountRemoved])
        #expect(entries.map(\.subject) == ["phone …2222", "phone …2222", "venue HALL-1", "account mina", "account mina", "account mina"])
        #expect(entries[4].detail == "password, role admin" && entries[1].rows == 1 && entries[2].rows == 2)
    }

    @Test func aStaffCheckInPastTheCapacityIsAuditedAsSuch() throws {
        let log = try Log()
        let profile = VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [],
                                   presence: VenuePresence(capacity: 3, maxStaySeconds: 86_400))
        let staff = StaffCheckIn(trail: log.trail)
        #expect(try staff.record(venue: Fixture.hall, visitor: nil, profile: profile) == .full(inside: 3))
        guard case .admitted(let outcome) = try staff.record(venue: Fixture.hall, visitor: nil, profile: profile, overCapacity: true) else {
            Issue.record("--over-capacity admits")
            return
        }
        #expect(outcome.checkIn.entry.operatorName == "root")
        let entries = try log.entries()
        #expect(entries.map(\.action) == [.overCapacity] && entries[0].detail == "venue HALL-1 over capacity 3" && entries[0].subject == "check-in \(outcome.checkIn.id)")
    }

    @Test func aPurgeLeavesItsOwnEntryAfterTheOldOnesItDeletes() throws {
        let log = try Log()
        // Entries of two hours ago: older than an audit retention of an hour.
        let old = AuditTrail(ledger: log.ledger, actor: .shell("root"), clock: TestClock(seconds: Fixture.start - 7200))
        _ = try VisitorLogExport(trail: old).begin(.query(CheckInQuery()), detail: "format=csv")
        _ = try Erasure(trail: old).preview(.phone("01099999999"), described: "phone …9999")
        let policy = RetentionPolicy(checkInSeconds: 7200, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        let now = log.fixture.clock.now()
        let purged = try LogPurge(trail: log.trail, policy: policy).run(policy.purgeRequest(at: now), at: now, always: true)
        #expect(purged.report.checkIns == 1 && purged.auditEntries == 2)
        let entries = try log.entries()
        #expect(entries.map(\.action) == [.purge], "the old entries went; the purge's own stays: \(entries)")
        #expect(entries[0].detail == "check-ins 1 (2h), refused scans 0 (1h), audit entries 2 (1h)" && entries[0].rows == 1)
        #expect(try log.rows().map(\.entry.visitor?.name) == ["Lee", "Park"])
    }

    @Test func theServersDailyPurgeIsAuditedWhenItDeletesSomething() throws {
        let log = try Log()
        let policy = RetentionPolicy(checkInSeconds: 7200, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        let service = RetentionService(ledger: log.ledger, policy: policy, clock: log.fixture.clock)
        #expect(try service.purgeNow().result.get().checkIns == 1)
        #expect(try service.purgeNow().result.get().checkIns == 0)
        let entries = try log.entries()
        #expect(entries.map(\.action) == [.purge] && entries[0].actor == "server" && entries[0].source == "retention", "\(entries)")
    }
}
