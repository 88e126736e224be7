import ServerDomain
import SharedDomain

/// The rules every ledger keeps, one suite per port (`visitLedger`, `visitLog`, `refusalLog`,
/// `auditLog`, `erasure`, `transactions`; `AccountContract` for `AccountLedger`), as named
/// cases any test target runs against its own engine (`InMemoryLedger`, SQLite, PostgreSQL):
/// each case gets a fresh, empty ledger. A case tests its port, using the others to set up and
/// to look.
///
///     @Test(arguments: LedgerContract.visitLedger) func visits(_ rule: LedgerContract.Case) async throws {
///         try await rule.run(on: makeEmptyLedger())
///     }
public enum LedgerContract {
    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        /// What the rule says.
        public let description: String
        let check: @Sendable (any Ledger) async throws(ContractFailure) -> Void

        /// Runs the rule on `ledger`, which must be empty.
        public func run(on ledger: any Ledger) async throws(ContractFailure) {
            try await check(ledger)
        }
    }

    static let hall = try! VenueID("HALL-1")
    static let cafe = try! VenueID("CAFE")
    static let phone = DeviceID("device-a")!
    static let other = DeviceID("device-b")!
    /// 2026-11-30T09:00:00Z, in milliseconds.
    static let start: Int64 = 1_796_029_200_000

    static func at(_ seconds: Int64) -> WallTime { WallTime(milliseconds: start + seconds * 1000) }

    static func scan(_ device: DeviceID?, _ venue: VenueID = hall, at seconds: Int64, method: CheckInMethod = .qr,
                     visitor: Visitor? = nil, operatorName: String? = nil) -> NewCheckIn {
        NewCheckIn(venue: venue, time: at(seconds), method: method, windowAge: method == .staff ? nil : 0,
                   device: device, visitor: visitor, operatorName: operatorName)
    }

    /// Every check-in `query` selects, read as an exporter does (a page at a time, small pages).
    static func all(_ ledger: any Ledger, _ query: CheckInQuery = CheckInQuery()) async throws(ContractFailure) -> [CheckIn] {
        var rows: [CheckIn] = []
        try await call("checkIns") { () async throws(LedgerError) in
            try await ledger.eachCheckIn(query, pageSize: 3) { row throws(LedgerError) in
                rows.append(row)
                return true
            }
        }
        return rows
    }

    /// Erases `subject` as operator actions do: in a transaction.
    static func erase(_ ledger: any Ledger, _ subject: ErasureSubject) async throws(ContractFailure) -> Int {
        try await call("erase") { () async throws(LedgerError) in try await ledger.transaction { transaction throws(LedgerError) in try transaction.erase(subject) } }
    }

    /// Appends `entry` as operator actions do: in a transaction.
    static func append(_ ledger: any Ledger, _ entry: AuditEntry) async throws(ContractFailure) -> AuditEntry {
        try await call("appendAudit") { () async throws(LedgerError) in
            try await ledger.transaction { transaction throws(LedgerError) in try transaction.appendAudit(entry) }
        }
    }

    /// The suite of `VisitLedger`: recording with duplicates and capacity, finding, exits, who is inside, overlaps.
    public static let visitLedger: [Case] = recordingCases + presenceCases
    /// The suite of `VisitLog`: exports in pages, counts, tallies, kept counts, devices by prefix, ids.
    public static let visitLog: [Case] = logCases + tallyCases
    /// The suite of `RefusalLog`.
    public static let refusalLog: [Case] = refusalCases
    /// The suite of `AuditLog`.
    public static let auditLog: [Case] = auditCases
    /// The suite of `ErasureLedger`: previews, erasure (in a transaction), purges and the retention.
    public static let erasure: [Case] = erasureCases + retentionCases
    /// The suite of `LedgerTransactions`.
    public static let transactions: [Case] = transactionCases
    /// Every rule, in the order they build on each other.
    public static let cases: [Case] = visitLedger + visitLog + refusalLog + auditLog + erasure + transactions

    /// The rules about a ledger's storage over time, which need it opened again.
    public static let storageCases: [StorageCase] = [
        StorageCase(description: "the same ledger reopened shows the same ids; another ledger's ids find nothing") { storage async throws(ContractFailure) in
            let first = try await call("open") { () async throws(LedgerError) in try await storage.open() }
            var recorded: [CheckIn] = []
            for index: Int64 in 0..<5 {
                let device = DeviceID("d\(index)")!
                recorded.append(try await call("record") { () async throws(LedgerError) in try await first.record(scan(device, at: index), duplicateSeconds: 60) }.checkIn)
            }
            // As a restarted server, or a command beside the running one, opens it.
            let again = try await call("open again") { () async throws(LedgerError) in try await storage.open() }
            try expect(try await all(again) == recorded, "reopened, the ledger must show the ids it showed")
            for checkIn in recorded {
                try expect(try await call("find") { () async throws(LedgerError) in try await again.find(id: checkIn.id) } == checkIn, "find(id: \(checkIn.id)) after reopening")
            }
            let other = try await call("open another") { () async throws(LedgerError) in try await storage.openAnother() }
            var theirs: [Int64] = []
            for index: Int64 in 0..<5 {
                let device = DeviceID("d\(index)")!
                theirs.append(try await call("record") { () async throws(LedgerError) in try await other.record(scan(device, at: index), duplicateSeconds: 60) }.checkIn.id)
            }
            try expect(Set(theirs).isDisjoint(with: recorded.map(\.id)), "another ledger (its own key) shows other ids: \(theirs)")
            for id in theirs {
                try expect(try await call("find") { () async throws(LedgerError) in try await again.find(id: id) } == nil, "another ledger's id \(id) must find nothing here")
            }
        },
    ]

    /// Recording and finding: duplicates decided once, atomically; ids shown.
    static let recordingCases: [Case] = [
        Case(description: "a recorded check-in comes back whole from find and export") { ledger async throws(ContractFailure) in
            let entry = NewCheckIn(venue: hall, time: at(0), method: .safeNumber, windowAge: -1, device: phone,
                                   visitor: Visitor(name: "김민지 Kim", phone: "010-1234-5678"), operatorName: nil)
            guard case .recorded(let recorded) = try await call("record", { () async throws(LedgerError) in try await ledger.record(entry, duplicateSeconds: 60) }) else {
                throw ContractFailure("the first check-in of a device was not recorded", line: #line)
            }
            try expect(recorded.entry == entry, "record returned \(recorded.entry), not what was given")
            try expect(recorded.id > 0, "ids are positive, got \(recorded.id)")
            let found = try await call("find") { () async throws(LedgerError) in try await ledger.find(id: recorded.id) }
            try expect(found == recorded, "find(id:) returned \(String(describing: found)), expected \(recorded)")
            try expect(try await call("find") { () async throws(LedgerError) in try await ledger.find(id: recorded.id + 1000) } == nil, "find of an unknown id must be nil")
            try expect(try await all(ledger) == [recorded], "export must hold exactly the recorded check-in")
            try expect(entry.visitor?.phone == "01012345678", "visitor phones are kept as digits")
        },
        Case(description: "staff check-ins (no device) keep their operator and are never duplicates") { ledger async throws(ContractFailure) in
            let entry = scan(nil, at: 0, method: .staff, visitor: Visitor(name: "Lee", phone: nil), operatorName: "door-staff")
            let first = try await call("record") { () async throws(LedgerError) in try await ledger.record(entry, duplicateSeconds: 3600) }
            let second = try await call("record") { () async throws(LedgerError) in try await ledger.record(entry, duplicateSeconds: 3600) }
            guard case .recorded(let a) = first, case .recorded(let b) = second else {
                throw ContractFailure("a check-in without a device must always be recorded", line: #line)
            }
            try expect(a.id != b.id, "two records got one id")
            try expect(b.entry.operatorName == "door-staff" && b.entry.windowAge == nil && b.device == nil, "staff fields changed: \(b.entry)")
        },
        Case(description: "the same device at the same venue within the duplicate time is the earlier check-in") { ledger async throws(ContractFailure) in
            let first = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 0), duplicateSeconds: 600) }.checkIn
            let again = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 599), duplicateSeconds: 600) }
            try expect(again == .duplicate(of: first), "599 s later within 600 s: expected duplicate of \(first.id), got \(again)")
            let elsewhere = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, cafe, at: 100), duplicateSeconds: 600) }
            guard case .recorded = elsewhere else { throw ContractFailure("another venue is not a duplicate: \(elsewhere)", line: #line) }
            let otherDevice = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(other, at: 100), duplicateSeconds: 600) }
            guard case .recorded = otherDevice else { throw ContractFailure("another device is not a duplicate", line: #line) }
            let later = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 600), duplicateSeconds: 600) }
            guard case .recorded(let next) = later else { throw ContractFailure("600 s later is a new check-in, got \(later)", line: #line) }
            let afterNext = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 700), duplicateSeconds: 600) }
            try expect(afterNext == .duplicate(of: next), "the duplicate time restarts at the new check-in: got \(afterNext)")
            try expect(try await call("count") { () async throws(LedgerError) in try await ledger.count(CheckInQuery()) } == 4, "4 check-ins were recorded")
        },
        Case(description: "duplicates are decided atomically: one device from many threads at once is one check-in") { ledger async throws(ContractFailure) in
            // Sixteen tasks at once: the engine's threads (SQLite's writer, PostgreSQL's pool) see them together.
            let results = await withTaskGroup(of: Result<RecordOutcome, LedgerError>.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        do throws(LedgerError) {
                            return .success(try await ledger.record(scan(phone, at: Int64(index % 2)), duplicateSeconds: 3600))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                var results: [Result<RecordOutcome, LedgerError>] = []
                for await result in group { results.append(result) }
                return results
            }
            var recorded = 0
            for result in results {
                switch result {
                case .success(.recorded): recorded += 1
                case .success(.duplicate): break
                case .failure(let error): throw ContractFailure("a concurrent record failed: \(error.kind.rawValue): \(error.message)", line: #line)
                }
            }
            try expect(recorded == 1, "16 concurrent scans of one device recorded \(recorded) check-ins, expected 1")
            try expect(try await call("count") { () async throws(LedgerError) in try await ledger.count(CheckInQuery(device: phone)) } == 1, "the log must hold one check-in")
            let firstID = try await all(ledger).first?.id
            for result in results {
                if case .success(let outcome) = result {
                    try expect(outcome.checkIn.id == firstID, "every answer must name the one recorded check-in")
                }
            }
        },
        Case(description: "find takes the id shown; a made-up or impossible id finds nothing") { ledger async throws(ContractFailure) in
            var recorded: [CheckIn] = []
            for index: Int64 in 0..<5 {
                let device = DeviceID("d\(index)")!
                recorded.append(try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(device, at: index), duplicateSeconds: 60) }.checkIn)
            }
            for checkIn in recorded {
                try expect(try await call("find") { () async throws(LedgerError) in try await ledger.find(id: checkIn.id) } == checkIn, "find(id: \(checkIn.id))")
            }
            // The row ids a counter would have given, and numbers no id can be.
            for made in [1, 2, 3, 4, 5, 6, 0, -1, Int64.min, (1 << 48) + 1, Int64.max, 123_456_789_012_345] as [Int64] where !recorded.map(\.id).contains(made) {
                try expect(try await call("find") { () async throws(LedgerError) in try await ledger.find(id: made) } == nil, "find(id: \(made)) must find nothing")
            }
        },
    ]

    /// Exports by page, counts, devices by prefix, the ids the log shows.
    static let logCases: [Case] = [
        Case(description: "export selects by venue, time range and device, oldest first, and stops when asked") { ledger async throws(ContractFailure) in
            for (seconds, venue, device) in [(30, hall, phone), (10, cafe, other), (20, hall, other), (40, cafe, phone)] {
                _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(device, venue, at: Int64(seconds)), duplicateSeconds: 0) }
            }
            try expect(try await all(ledger).map(\.time) == [at(10), at(20), at(30), at(40)], "export must be oldest first")
            try expect(try await all(ledger, CheckInQuery(venue: hall)).map(\.time) == [at(20), at(30)], "venue filter")
            try expect(try await all(ledger, CheckInQuery(from: at(20), until: at(40))).map(\.time) == [at(20), at(30)],
                       "from is inclusive, until exclusive")
            try expect(try await all(ledger, CheckInQuery(device: phone)).map(\.time) == [at(30), at(40)], "device filter")
            try expect(try await all(ledger, CheckInQuery(limit: 3)).count == 3, "limit")
            var seen = 0
            try await call("checkIns") { () async throws(LedgerError) in
                try await ledger.eachCheckIn(CheckInQuery(), pageSize: 1) { _ throws(LedgerError) in
                    seen += 1
                    return seen < 2
                }
            }
            try expect(seen == 2, "an export must stop when the body returns false (saw \(seen))")
            try expect(try await call("count") { () async throws(LedgerError) in try await ledger.count(CheckInQuery(venue: cafe, limit: 1)) } == 2, "count ignores limit")
        },
        Case(description: "devices(prefixed:) finds each device with check-ins whose id begins so, once, up to the limit") { ledger async throws(ContractFailure) in
            let ids = ["019a0c2f1b3d7e41aa", "019a0c2f1b3d7e42bb", "019a0c2f1b3e0000cc", "x_y-z"].map { DeviceID($0)! }
            for (index, device) in ids.enumerated() {
                for repeatIndex in 0..<2 {  // two check-ins each: a device is listed once
                    _ = try await call("record") { () async throws(LedgerError) in
                        try await ledger.record(scan(device, at: Int64(index * 10 + repeatIndex)), duplicateSeconds: 0)
                    }
                }
            }
            func found(_ prefix: String, limit: Int = 10) async throws(ContractFailure) -> [String] {
                try await call("devices(prefixed:)") { () async throws(LedgerError) in try await ledger.devices(prefixed: prefix, limit: limit) }.map(\.rawValue).sorted()
            }
            try expect(try await found("019a0c2f1b3d7e41") == ["019a0c2f1b3d7e41aa"], "16 characters name one device")
            try expect(try await found("019a0c2f1b3d") == ["019a0c2f1b3d7e41aa", "019a0c2f1b3d7e42bb"], "a shorter prefix, every match")
            try expect(try await found("019a0c2f", limit: 2).count == 2, "at most the limit")
            try expect(try await found("x_y") == ["x_y-z"], "_ and - are characters, not patterns")
            try expect(try await found("x%").isEmpty, "no pattern")
            try expect(try await found("019A").isEmpty, "case matters")
            try expect(try await found("1").isEmpty, "a prefix, not a substring")
            try expect(try await found("019a0c2f1b3d7e41aa") == ["019a0c2f1b3d7e41aa"], "a whole id")
        },
        Case(description: "ids are unique and reveal nothing: not sequential, not increasing, spread over 1 to 2^48") { ledger async throws(ContractFailure) in
            var ids: [Int64] = []
            for index: Int64 in 0..<20 {
                try await call("recordRefusal") { () async throws(LedgerError) in
                    try await ledger.recordRefusal(Refusal(venue: nil, time: at(index), reason: .malformed, method: .qr))
                }
                let device = DeviceID("d\(index)")!
                ids.append(try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(device, at: index), duplicateSeconds: 60) }.checkIn.id)
            }
            try expect(Set(ids).count == ids.count, "two check-ins got one id: \(ids)")
            try expect(ids.allSatisfy(CheckInIDCipher.ids.contains), "ids are 1 to 2^48 (exact in a double): \(ids)")
            // A counter, or a counter plus an offset, would be increasing; 20 keyed ids are in
            // order with probability 1/20!, and all below 2^40 with probability 2^-160.
            try expect(ids != ids.sorted(), "ids must not increase in the order of recording: \(ids)")
            try expect(zip(ids, ids.dropFirst()).contains { $1 - $0 != 1 }, "ids must not be consecutive: \(ids)")
            try expect(ids.contains { $0 > 1 << 40 }, "ids must spread over the range, not count up from 1: \(ids)")
            try expect(try await all(ledger).map(\.id) == ids, "export shows the same ids, in the order of recording within a moment")
            try expect(try await call("count") { () async throws(LedgerError) in try await ledger.count(CheckInQuery()) } == 20, "20 check-ins")
        },
    ]

    /// Purges, erasure (as an action does it: in a transaction) and its preview.
    static let erasureCases: [Case] = [
        Case(description: "purge deletes what is older than its cutoffs, dry runs delete nothing") { ledger async throws(ContractFailure) in
            for seconds: Int64 in [0, 100, 200] {
                _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: seconds), duplicateSeconds: 10) }
            }
            for seconds: Int64 in [0, 150] {
                try await call("recordRefusal") { () async throws(LedgerError) in
                    try await ledger.recordRefusal(Refusal(venue: hall, time: at(seconds), reason: .expired, method: .qr))
                }
            }
            let dry = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(checkInsBefore: at(150), refusalsBefore: at(100), dryRun: true) }
            try expect(dry == PurgeReport(checkIns: 2, refusals: 1), "dry run should report 2 and 1, got \(dry)")
            try expect(try await all(ledger).count == 3, "a dry run must delete nothing")
            let real = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(checkInsBefore: at(150), refusalsBefore: at(100), dryRun: false) }
            try expect(real == dry, "the purge must delete what the dry run reported: \(real)")
            try expect(try await all(ledger).map(\.time) == [at(200)], "only the check-in after the cutoff remains")
            let again = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(checkInsBefore: at(150), refusalsBefore: at(100), dryRun: false) }
            try expect(again == PurgeReport(checkIns: 0, refusals: 0), "a second purge finds nothing: \(again)")
        },
        Case(description: "a purge also forgets the duplicate keys of purged check-ins") { ledger async throws(ContractFailure) in
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 0), duplicateSeconds: 3600) }
            _ = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(checkInsBefore: at(10), refusalsBefore: at(10), dryRun: false) }
            let after = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 20), duplicateSeconds: 3600) }
            guard case .recorded = after else {
                throw ContractFailure("after its check-in was purged the device's next scan must be recorded, got \(after)", line: #line)
            }
        },
        Case(description: "erasing a device or a phone number deletes exactly that visitor's check-ins") { ledger async throws(ContractFailure) in
            let kim = Visitor(name: "Kim", phone: "010-1111-2222")
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 0, visitor: kim), duplicateSeconds: 0) }
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, cafe, at: 5), duplicateSeconds: 0) }
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(other, at: 10, visitor: kim), duplicateSeconds: 0) }
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(other, at: 20), duplicateSeconds: 0) }
            try expect(try await erase(ledger, .device(phone)) == 2, "erasing device-a deletes its 2 check-ins")
            try expect(try await all(ledger).map(\.time) == [at(10), at(20)], "device-b's check-ins remain")
            try expect(try await erase(ledger, .phone("01011112222")) == 1, "erasing Kim's phone deletes 1")
            try expect(try await all(ledger).map(\.time) == [at(20)], "only the check-in without Kim's phone remains")
            let fresh = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 30), duplicateSeconds: 3600) }
            guard case .recorded = fresh else { throw ContractFailure("an erased device starts afresh, got \(fresh)", line: #line) }
        },
        Case(description: "checkIns(of:) shows what erase deletes; erasing one check-in takes it alone, and its duplicate key only if it opened it") { ledger async throws(ContractFailure) in
            let kim = Visitor(name: "Kim", phone: "010-1111-2222")
            func recorded(_ entry: NewCheckIn) async throws(ContractFailure) -> CheckIn {
                let outcome = try await call("record") { () async throws(LedgerError) in try await ledger.record(entry, duplicateSeconds: 3600) }
                return outcome.checkIn
            }
            func shown(_ subject: ErasureSubject) async throws(ContractFailure) -> [WallTime] {
                let rows = try await call("checkIns(of:)") { () async throws(LedgerError) in try await ledger.checkIns(of: subject) }
                return rows.map(\.time)
            }
            let first = try await recorded(scan(phone, at: 0))
            _ = try await recorded(scan(phone, cafe, at: 5))
            let kims = try await recorded(scan(other, at: 10, visitor: kim))
            let later = try await recorded(scan(phone, at: 4000))  // a new visit: the key now names this one
            try expect(try await shown(.device(phone)) == [at(0), at(5), at(4000)], "a device's check-ins, oldest first")
            try expect(try await shown(.phone("01011112222")) == [at(10)], "a phone number's check-ins")
            try expect(try await call("checkIns(of:)") { () async throws(LedgerError) in try await ledger.checkIns(of: .checkIn(kims.id)) } == [kims], "one check-in")
            try expect(try await shown(.checkIn(first.id == 7 ? 8 : 7)).isEmpty, "an id that names no check-in shows none")
            try expect(try await shown(.checkIn(0)).isEmpty, "an impossible id shows none")
            try expect(try await erase(ledger, .checkIn(first.id)) == 1, "erasing one check-in deletes one")
            try expect(try await all(ledger).map(\.time) == [at(5), at(10), at(4000)], "only that check-in went")
            let again = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 4100), duplicateSeconds: 3600) }
            try expect(again == .duplicate(of: later), "the key the later check-in opened stays: \(again)")
            try expect(try await erase(ledger, .checkIn(later.id)) == 1, "erasing the later one")
            let fresh = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 4200), duplicateSeconds: 3600) }
            guard case .recorded = fresh else { throw ContractFailure("its key went with it: the next scan is a new check-in, got \(fresh)", line: #line) }
            try expect(try await erase(ledger, .checkIn(first.id)) == 0, "erased already")
            try expect(try await erase(ledger, .checkIn(-1)) == 0, "an impossible id erases nothing")
        },
    ]
}

extension LedgerContract {
    /// A rule about a ledger's storage over time: it opens the ledger under test more than once,
    /// and a second ledger of the same engine.
    public struct StorageCase: Sendable, CustomStringConvertible {
        /// What the rule says.
        public let description: String
        let check: @Sendable (Storage) async throws(ContractFailure) -> Void

        /// Runs the rule on `storage`, whose ledger must be empty.
        public func run(on storage: Storage) async throws(ContractFailure) {
            try await check(storage)
        }
    }

    /// How a storage rule reaches its ledgers.
    public struct Storage: Sendable {
        /// Opens the ledger under test, again at each call (a restarted server, a command).
        public let open: @Sendable () async throws(LedgerError) -> any Ledger
        /// Opens a second, empty ledger of the same engine, with storage of its own.
        public let openAnother: @Sendable () async throws(LedgerError) -> any Ledger

        /// Storage opened by these functions.
        public init(open: @escaping @Sendable () async throws(LedgerError) -> any Ledger,
                    openAnother: @escaping @Sendable () async throws(LedgerError) -> any Ledger) {
            self.open = open
            self.openAnother = openAnother
        }
    }
}
