import ServerDomain
import ServerLedgerTesting
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

        init() async throws {
            for (index, name) in ["Kim", "Lee", "Park"].enumerated() {
                _ = try await ledger.record(NewCheckIn(venue: Fixture.hall, time: WallTime(seconds: Fixture.start - 3600 * Int64(3 - index)), method: .staff,
                                                 windowAge: nil, device: nil, visitor: Visitor(name: name, phone: name == "Kim" ? "01011112222" : nil),
                                                 operatorName: "door"), duplicateSeconds: 0)
            }
        }

        func entries() async throws(LedgerError) -> [AuditEntry] {
            try await ledger.audit(AuditQuery()).reversed()
        }

        func rows() async throws(LedgerError) -> [CheckIn] {
            try await ledger.checkIns(CheckInQuery(), after: nil)
        }
    }

    @Test func anExportIsAuditedBeforeItsFirstRowAndHandsOutNoMoreThanItsEntrySays() async throws {
        let log = try await Log()
        let export = try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.query(CheckInQuery(venue: Fixture.hall)), detail: "venue=HALL-1 format=csv")
        #expect(try await log.entries().map(\.action) == [.export] && export.entry.rows == 3 && export.entry.actor == "root" && export.entry.source == "cli")
        // A check-in recorded after the entry was counted waits for the next export.
        _ = try await log.fixture.ledger.record(NewCheckIn(venue: Fixture.hall, time: WallTime(seconds: Fixture.start), method: .staff, windowAge: nil,
                                                     device: nil), duplicateSeconds: 0)
        var names: [String?] = []
        try await export.rows { names.append($0.entry.visitor?.name); return true }
        #expect(names == ["Kim", "Lee", "Park"])
        let limited = try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.query(CheckInQuery(limit: 1)), detail: "limit=1")
        #expect(limited.entry.rows == 1)
        let receipt = try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.receipt(12345, within: CheckInQuery()), detail: "receipt")
        var none = 0
        try await receipt.rows { _ in none += 1; return true }
        #expect(receipt.entry.rows == 0 && none == 0)
        // A receipt's check-in outside the rest of the filter is not handed out.
        let kim = try await log.rows()[0]
        let elsewhere = try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.receipt(kim.id, within: CheckInQuery(venue: try await VenueID("CAFE"))), detail: "receipt")
        let here = try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.receipt(kim.id, within: CheckInQuery(venue: Fixture.hall)), detail: "receipt")
        var found: [Int64] = []
        try await elsewhere.rows { found.append($0.id); return true }
        try await here.rows { found.append($0.id); return true }
        #expect(elsewhere.entry.rows == 0 && here.entry.rows == 1 && found == [kim.id])
    }

    @Test func onAFullDiskNoReadHandsAnythingOut() async throws {
        let log = try await Log()
        log.ledger.failWrites(with: Self.full)
        await #expect(throws: Self.full) { try await VisitorLogExport(trail: log.trail, log: log.ledger).begin(.query(CheckInQuery()), detail: "format=csv") }
        var shown = 0
        await #expect(throws: Self.full) { try await VisitorLogExport(trail: log.trail, log: log.ledger).page(detail: "page") { _ throws(LedgerError) in try await log.rows() } }
        await #expect(throws: Self.full) {
            try await EvacuationRoll(trail: log.trail, visits: log.ledger, venues: VenueDirectory()).run(venue: nil, detail: "format=csv") { _ in shown += 1; return true }
        }
        await #expect(throws: Self.full) { try await Erasure(trail: log.trail, ledger: log.ledger).preview(.phone("01011112222"), described: "phone …2222") }
        let kim = try await log.rows()[0]
        await #expect(throws: Self.full) {
            try await OverlapsLookup(trail: log.trail, ledger: log.ledger, venues: VenueDirectory()).overlaps(of: kim.id, marginSeconds: 0, detail: "format=csv")
        }
        let entries = try await log.entries()
        #expect(shown == 0 && entries.isEmpty)
    }

    @Test func theShellsRollInAnEvacuationListsAllTheSameAndSaysWhy() async throws {
        let log = try await Log()
        log.ledger.failWrites(with: Self.full)
        let warned = Mutex<[LedgerError]>([])
        var names: [String?] = []
        let entry = try await EvacuationRoll(trail: log.trail, visits: log.ledger, venues: VenueDirectory()).run(
            venue: Fixture.hall, detail: "format=csv", unaudited: .listAnyway(warn: { error in warned.withLock { $0.append(error) } })) {
            names.append($0.entry.visitor?.name)
            return true
        }
        #expect(entry == nil && names == ["Kim", "Lee", "Park"] && warned.withLock { $0 } == [Self.full])
    }

    @Test func onAFullDiskNoChangeHappens() async throws {
        let log = try await Log()
        _ = try await log.ledger.addAccount(ConsoleAccount(name: "mina", role: .steward, passwordHash: "x", created: WallTime(seconds: 0)))
        let before = try await log.rows()
        log.ledger.failWrites(with: Self.full)
        await #expect(throws: Self.full) { try await Erasure(trail: log.trail, ledger: log.ledger).erase(.phone("01011112222"), described: "phone …2222") }
        await #expect(throws: Self.full) { try await StaffCheckIn(trail: log.trail).record(venue: Fixture.hall, visitor: nil, profile: nil) }
        await #expect(throws: Self.full) { try await StaffCheckOut(trail: log.trail).run(.venue(Fixture.hall)) }
        await #expect(throws: Self.full) { try await AccountChanges(trail: log.trail).change(named: "mina", AccountChange(disabled: true)) }
        await #expect(throws: Self.full) { try await AccountChanges(trail: log.trail).remove(named: "mina") }
        let policy = RetentionPolicy(checkInSeconds: 3600, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        await #expect(throws: Self.full) {
            try await LogPurge(trail: log.trail, ledger: log.ledger, policy: policy).run(policy.purgeRequest(at: log.fixture.clock.now()), at: log.fixture.clock.now(), always: true)
        }
        log.ledger.failWrites(with: nil)
        let (rows, mina, entries) = (try await log.rows(), try await log.ledger.account(named: "mina"), try await log.entries())
        #expect(rows == before && mina?.disabled == false && entries.isEmpty)
    }

    @Test func eachChangeLeavesOneEntryAndNothingFoundLeavesNone() async throws {
        let log = try await Log()
        let kim = try await log.rows()[0]
        #expect(try await Erasure(trail: log.trail, ledger: log.ledger).preview(.phone("01011112222"), described: "phone …2222").count == 1)
        #expect(try await Erasure(trail: log.trail, ledger: log.ledger).erase(.phone("01011112222"), described: "phone …2222") == 1)
        #expect(try await StaffCheckOut(trail: log.trail).run(.checkIn(kim.id)).visit == nil, "erased: nothing to end")
        #expect(try await StaffCheckOut(trail: log.trail).run(.venue(Fixture.hall)).closed == 2)
        let changes = AccountChanges(trail: log.trail)
        #expect(try await changes.add(ConsoleAccount(name: "mina", role: .steward, passwordHash: "x", created: WallTime(seconds: 0))))
        #expect(try await !changes.add(ConsoleAccount(name: "mina", role: .admin, passwordHash: "y", created: WallTime(seconds: 0))))
        #expect(try await changes.change(named: "mina", AccountChange(role: .admin, passwordHash: "z")))
        #expect(try await !changes.change(named: "nobody", AccountChange(disabled: true)))
        #expect(try await changes.remove(named: "mina"))
        #expect(try await !changes.remove(named: "mina"))
        let entries = try await log.entries()
        #expect(entries.map(\.action) == [.erasePreview, .erase, .staffCheckOut, .accountAdded, .accountChanged, .accountRemoved])
        #expect(entries.map(\.subject) == ["phone …2222", "phone …2222", "venue HALL-1", "account mina", "account mina", "account mina"])
        #expect(entries[4].detail == "password, role admin" && entries[1].rows == 1 && entries[2].rows == 2)
    }

    @Test func aStaffCheckInPastTheCapacityIsAuditedAsSuch() async throws {
        let log = try await Log()
        let profile = VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [],
                                   presence: VenuePresence(capacity: 3, maxStaySeconds: 86_400))
        let staff = StaffCheckIn(trail: log.trail)
        #expect(try await staff.record(venue: Fixture.hall, visitor: nil, profile: profile) == .full(inside: 3))
        guard case .admitted(let outcome) = try await staff.record(venue: Fixture.hall, visitor: nil, profile: profile, overCapacity: true) else {
            Issue.record("--over-capacity admits")
            return
        }
        #expect(outcome.checkIn.entry.operatorName == "root")
        let entries = try await log.entries()
        #expect(entries.map(\.action) == [.overCapacity] && entries[0].detail == "venue HALL-1 over capacity 3" && entries[0].subject == "check-in \(outcome.checkIn.id)")
    }

    @Test func aPurgeLeavesItsOwnEntryAfterTheOldOnesItDeletes() async throws {
        let log = try await Log()
        // Entries of two hours ago: older than an audit retention of an hour.
        let old = AuditTrail(ledger: log.ledger, actor: .shell("root"), clock: TestClock(seconds: Fixture.start - 7200))
        _ = try await VisitorLogExport(trail: old, log: log.ledger).begin(.query(CheckInQuery()), detail: "format=csv")
        _ = try await Erasure(trail: old, ledger: log.ledger).preview(.phone("01099999999"), described: "phone …9999")
        let policy = RetentionPolicy(checkInSeconds: 7200, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        let now = log.fixture.clock.now()
        let purged = try await LogPurge(trail: log.trail, ledger: log.ledger, policy: policy).run(policy.purgeRequest(at: now), at: now, always: true)
        #expect(purged.report.checkIns == 1 && purged.auditEntries == 2)
        let entries = try await log.entries()
        #expect(entries.map(\.action) == [.purge], "the old entries went; the purge's own stays: \(entries)")
        #expect(entries[0].detail == "check-ins 1 (2h), refused scans 0 (1h), audit entries 2 (1h)" && entries[0].rows == 1)
        #expect(try await log.rows().map(\.entry.visitor?.name) == ["Lee", "Park"])
    }

    @Test func theServersDailyPurgeIsAuditedWhenItDeletesSomething() async throws {
        let log = try await Log()
        let policy = RetentionPolicy(checkInSeconds: 7200, refusalSeconds: 3600, keepsDailyCounts: false, auditSeconds: 3600)
        let service = RetentionService(ledger: log.ledger, policy: policy, clock: log.fixture.clock)
        #expect(try await service.purgeNow().result.get().checkIns == 1)
        #expect(try await service.purgeNow().result.get().checkIns == 0)
        let entries = try await log.entries()
        #expect(entries.map(\.action) == [.purge] && entries[0].actor == "server" && entries[0].source == "retention", "\(entries)")
    }
}
