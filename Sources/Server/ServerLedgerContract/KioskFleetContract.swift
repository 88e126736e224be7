import ServerDomain
import SharedDomain
import SharedJSON

/// The rules every `KioskFleet` keeps (the kiosks' latest reports, their nonces and the
/// operators' steers), as named cases each ledger's tests run against a fresh, empty ledger:
/// memory, SQLite and PostgreSQL.
public enum KioskFleetContract {
    /// A ledger as the contract uses it: the fleet, and its transactions' kiosk actions (a steer
    /// and forgetting are operator actions, written inside a transaction).
    public struct Subject: Sendable {
        public let fleet: any KioskFleet
        let steer: @Sendable (KioskKey, KioskSteerChange, OperatorName, WallTime) async throws(LedgerError) -> KioskSteer?
        let forget: @Sendable (KioskKey) async throws(LedgerError) -> Bool

        /// A subject: `fleet`, and how one transaction of the same ledger steers and forgets.
        public init(fleet: any KioskFleet,
                    steer: @escaping @Sendable (KioskKey, KioskSteerChange, OperatorName, WallTime) async throws(LedgerError) -> KioskSteer?,
                    forget: @escaping @Sendable (KioskKey) async throws(LedgerError) -> Bool) {
            self.fleet = fleet
            self.steer = steer
            self.forget = forget
        }
    }

    /// The subject of a ledger that is both the fleet and its transactions (every engine).
    public static func subject(_ ledger: some KioskFleet & LedgerTransactions) -> Subject {
        Subject(fleet: ledger, steer: { key, change, by, time throws(LedgerError) in
            try await ledger.transaction { transaction throws(LedgerError) in try transaction.steerKiosk(key, change, by: by, at: time) }
        }, forget: { key throws(LedgerError) in
            try await ledger.transaction { transaction throws(LedgerError) in try transaction.forgetKiosk(key) }
        })
    }

    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        let check: @Sendable (Subject) async throws(ContractFailure) -> Void

        /// Runs the rule on `subject`, whose ledger knows no kiosk.
        public func run(on subject: Subject) async throws(ContractFailure) {
            try await check(subject)
        }
    }

    static let hall = try! VenueID("HALL-1")
    static let annex = try! VenueID("ANNEX")
    static let window: Int64 = 300_000
    static let mina = OperatorName("mina")!

    static func key(_ name: String, _ venue: VenueID = hall) -> KioskKey { KioskKey(venue: venue, name: try! KioskName(name)) }

    static func nonce(_ byte: UInt8) -> ReportNonce { ReportNonce(bytes: Array(repeating: byte, count: ReportNonce.byteCount)) }

    /// A report of `key` received at `received` seconds (signed then), with `nonce`.
    static func receipt(_ key: KioskKey, nonce byte: UInt8, at received: Int64, window codeWindow: Int64 = 7,
                        applied: KioskReport.Applied? = nil) -> KioskReceipt {
        let report = KioskReport(venue: key.venue, kiosk: key.name, version: "0.1.0", reportInterval: 30, wallClock: received * 1000,
                                 status: .running, summary: "running",
                                 daemon: KioskReport.Daemon(state: .running, window: codeWindow, seq: codeWindow, period: 15, health: "ok",
                                                            shake: .on, refresh: .auto),
                                 applied: applied)
        return KioskReceipt(report: report, body: report.bodyBytes, nonce: nonce(byte), signedAt: received * 1000,
                            receivedAt: WallTime(seconds: received))
    }

    static func receive(_ subject: Subject, _ receipt: KioskReceipt, line: Int = #line) async throws(ContractFailure) -> KioskReceiptOutcome {
        try await callAsync("receive", line: line) { () async throws(LedgerError) in
            try await subject.fleet.receive(receipt, replayWindowMilliseconds: window)
        }
    }

    static func list(_ subject: Subject, _ venue: VenueID? = nil, line: Int = #line) async throws(ContractFailure) -> [KioskRecord] {
        try await callAsync("kiosks", line: line) { () async throws(LedgerError) in try await subject.fleet.kiosks(venue: venue) }
    }

    static func steer(_ subject: Subject, _ key: KioskKey, _ change: KioskSteerChange, at seconds: Int64,
                      line: Int = #line) async throws(ContractFailure) -> KioskSteer? {
        try await callAsync("steerKiosk", line: line) { () async throws(LedgerError) in
            try await subject.steer(key, change, mina, WallTime(seconds: seconds))
        }
    }

    static func pending(_ subject: Subject, _ key: KioskKey, line: Int = #line) async throws(ContractFailure) -> KioskSteer? {
        try await callAsync("pendingSteer", line: line) { () async throws(LedgerError) in try await subject.fleet.pendingSteer(for: key) }
    }

    /// Every rule.
    public static let cases: [Case] = [
        Case(description: "a kiosk's latest report is kept, not a history; listed by venue and name") { subject throws(ContractFailure) in
            try await expect(await list(subject).isEmpty, "a new ledger knows no kiosk")
            let first = receipt(key("K2"), nonce: 1, at: 1000, window: 66)
            try await expect(await receive(subject, first) == .stored(pending: nil), "a first report is stored")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 2, at: 1001)) == .stored(pending: nil), "another kiosk's")
            try await expect(await receive(subject, receipt(key("K1", annex), nonce: 3, at: 1002)) == .stored(pending: nil), "another venue's")
            let later = receipt(key("K2"), nonce: 4, at: 1030, window: 68)
            _ = try await receive(subject, later)
            let all = try await list(subject)
            try expect(all.map(\.key) == [key("K1", annex), key("K1"), key("K2")], "one row per kiosk, by venue and name: \(all.map(\.key))")
            let k2 = all.last
            try expect(k2?.report == later.report && k2?.receivedAt == WallTime(seconds: 1030), "the latest report, whole: \(String(describing: k2))")
            try expect(k2?.steer == nil, "no steer was given")
            try await expect(await list(subject, annex).map(\.key) == [key("K1", annex)], "one venue's kiosks")
            let one = try await callAsync("kiosk") { () async throws(LedgerError) in try await subject.fleet.kiosk(key("K2")) }
            try expect(one == k2, "one kiosk read by its key is the listed one")
            let none = try await callAsync("kiosk") { () async throws(LedgerError) in try await subject.fleet.kiosk(key("K9")) }
            try expect(none == nil, "an unknown kiosk finds nothing")
        },
        Case(description: "an announcement is news once: the same again writes nothing, a change does, an unknown or forgotten kiosk none") { subject throws(ContractFailure) in
            func announce(_ announcement: KioskAnnouncement, line: Int = #line) async throws(ContractFailure) -> Bool {
                try await callAsync("announce", line: line) { () async throws(LedgerError) in
                    try await !subject.fleet.announce([announcement], at: WallTime(seconds: 1100)).isEmpty
                }
            }
            let k1 = key("K1"), late = KioskAnnouncement(key: key("K1"), state: .late, problems: [])
            try await expect(await !announce(late), "a kiosk that never reported has nothing to tell")
            _ = try await receive(subject, receipt(k1, nonce: 1, at: 1000))
            _ = try await receive(subject, receipt(key("K2"), nonce: 2, at: 1000))
            let ok = KioskAnnouncement(key: k1, state: .ok, problems: [])
            try await expect(await announce(ok), "a new kiosk's first state is news")
            try await expect(await !announce(ok), "the same again is not")
            try await expect(await announce(KioskAnnouncement(key: key("K2"), state: .ok, problems: [])), "another kiosk's is its own")
            let paused = KioskAnnouncement(key: k1, state: .ok, problems: ["paused"])
            try await expect(await announce(paused), "a new problem is news")
            try await expect(await !announce(paused), "once")
            _ = try await receive(subject, receipt(k1, nonce: 3, at: 1030))
            try await expect(await !announce(paused), "a report that changes nothing told keeps what was told")
            try await expect(await announce(late), "turning late is news")
            try await expect(await callAsync("forget") { () async throws(LedgerError) in try await subject.forget(k1) }, "forgotten")
            try await expect(await !announce(ok), "a forgotten kiosk has nothing to tell")
            _ = try await receive(subject, receipt(k1, nonce: 4, at: 1040))
            try await expect(await announce(late), "reporting again after being forgotten, it starts afresh")
            let both = [KioskAnnouncement(key: k1, state: .late, problems: []), KioskAnnouncement(key: key("K2"), state: .offline, problems: [])]
            let news = try await callAsync("announce") { () async throws(LedgerError) in try await subject.fleet.announce(both, at: WallTime(seconds: 1200)) }
            try expect(news == [both[1]], "in one call, each kiosk's own news: \(news)")
        },
        Case(description: "a nonce seen for a kiosk within the window is refused and nothing is stored; another kiosk's, or one past the window, is not") { subject throws(ContractFailure) in
            _ = try await receive(subject, receipt(key("K1"), nonce: 9, at: 1000, window: 66))
            let copy = receipt(key("K1"), nonce: 9, at: 1000 + 299, window: 80)
            try await expect(await receive(subject, copy) == .replayed, "a copy within the window is refused")
            let kept = try await list(subject).first
            try expect(kept?.report.daemon?.window == 66 && kept?.receivedAt == WallTime(seconds: 1000), "the refused copy changed nothing")
            try await expect(await receive(subject, receipt(key("K2"), nonce: 9, at: 1010)) == .stored(pending: nil), "nonces are a kiosk's own")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 9, at: 1000 + 301, window: 90)) == .stored(pending: nil),
                             "a nonce older than the window is forgotten")
            try await expect(await list(subject).first?.report.daemon?.window == 90, "and that report is the latest")
        },
        Case(description: "a steer waits for its kiosk, merges into one still pending under a new id, and is marked applied by the report that says so") { subject throws(ContractFailure) in
            try await expect(await steer(subject, key("K1"), KioskSteerChange(refresh: .paused), at: 1000) == nil,
                             "a kiosk that never reported cannot be steered")
            try await expect(await callAsync("latestSteerID") { () async throws(LedgerError) in try await subject.fleet.latestSteerID() } == 0,
                             "no steer yet: 0")
            _ = try await receive(subject, receipt(key("K1"), nonce: 1, at: 1000))
            _ = try await receive(subject, receipt(key("K2"), nonce: 2, at: 1000))
            guard let first = try await steer(subject, key("K1"), KioskSteerChange(refresh: .paused), at: 1010) else {
                throw ContractFailure("a known kiosk is steered", line: #line)
            }
            try expect(first.refresh == .paused && first.shake == nil && !first.newCode && first.by == mina && first.at == 1010, "the steer as asked: \(first)")
            try await expect(await pending(subject, key("K1")) == first, "it is pending")
            try await expect(await pending(subject, key("K2")) == nil, "another kiosk has none")
            guard let merged = try await steer(subject, key("K1"), KioskSteerChange(shake: .off, newCode: true), at: 1020) else {
                throw ContractFailure("a second steer is given", line: #line)
            }
            try expect(merged.id > first.id, "a new id: \(merged.id) after \(first.id)")
            try expect(merged.refresh == .paused && merged.shake == .off && merged.newCode, "merged with the pending one: \(merged)")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 3, at: 1030)) == .stored(pending: merged),
                             "a report's answer carries the pending steer")
            let stale = KioskReport.Applied(steer: first.id, at: 1031, outcome: "ok")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 4, at: 1032, applied: stale)) == .stored(pending: merged),
                             "applying a steer replaced since applies nothing")
            let applied = KioskReport.Applied(steer: merged.id, at: 1041, outcome: "ok")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 5, at: 1042, applied: applied)) == .stored(pending: nil),
                             "once applied, nothing is pending")
            let record = try await list(subject).first
            try expect(record?.steer == KioskSteerRecord(steer: merged, appliedAt: 1041, outcome: "ok"), "applied when and how: \(String(describing: record?.steer))")
            guard let third = try await steer(subject, key("K2"), KioskSteerChange(newCode: true), at: 1050) else {
                throw ContractFailure("another kiosk is steered", line: #line)
            }
            let notices = try await callAsync("steers") { () async throws(LedgerError) in try await subject.fleet.steers(after: first.id, limit: 10) }
            try expect(notices == [KioskSteerNotice(id: merged.id, key: key("K1")), KioskSteerNotice(id: third.id, key: key("K2"))],
                       "the steers given after one, oldest first: \(notices)")
            let page = try await callAsync("steers") { () async throws(LedgerError) in try await subject.fleet.steers(after: 0, limit: 1) }
            try expect(page.map(\.id) == [merged.id], "at most the limit, each kiosk's latest steer: \(page)")
            try await expect(await callAsync("latestSteerID") { () async throws(LedgerError) in try await subject.fleet.latestSteerID() } == third.id,
                             "the newest id")
        },
        Case(description: "forgetting a kiosk removes its report, steer and nonces; ids are never reused; it is listed again once it reports") { subject throws(ContractFailure) in
            _ = try await receive(subject, receipt(key("K1"), nonce: 1, at: 1000))
            _ = try await receive(subject, receipt(key("K2"), nonce: 1, at: 1000))
            let given = try await steer(subject, key("K1"), KioskSteerChange(refresh: .paused), at: 1001)
            try await expect(await callAsync("forgetKiosk") { () async throws(LedgerError) in try await subject.forget(key("K1")) }, "a known kiosk is forgotten")
            try await expect(await list(subject).map(\.key) == [key("K2")], "it is no longer listed")
            try await expect(await pending(subject, key("K1")) == nil, "its steer went with it")
            try await expect(await !callAsync("forgetKiosk") { () async throws(LedgerError) in try await subject.forget(key("K1")) },
                             "forgetting it again finds nothing")
            try await expect(await receive(subject, receipt(key("K1"), nonce: 1, at: 1002)) == .stored(pending: nil),
                             "its nonces went too, and it is listed again once it reports")
            let again = try await steer(subject, key("K1"), KioskSteerChange(shake: .off), at: 1003)
            try expect((again?.id ?? 0) > (given?.id ?? .max), "a steer id is never reused: \(String(describing: again?.id)) after \(String(describing: given?.id))")
            try expect(again?.refresh == nil, "nothing of the forgotten steer is merged: \(String(describing: again))")
        },
    ]
}

/// The value of an async ledger call, or a failure naming the ledger's error.
func callAsync<T>(_ what: String, line: Int = #line, _ body: () async throws(LedgerError) -> T) async throws(ContractFailure) -> T {
    do throws(LedgerError) {
        return try await body()
    } catch {
        throw ContractFailure("\(what) failed: \(error.kind.rawValue): \(error.message)", line: line)
    }
}
