import SharedDomain
import Synchronization

import ServerDomain

/// A ledger in memory: for tests of the use case and of everything above it, and the reference
/// the database ledgers are held to (it passes every port's contract too). Nothing survives the
/// process, and no executable links it (ServerLedgerTesting is for tests). Every call runs under
/// one lock at once: there is nothing to wait for, no thread to hop to.
public final class InMemoryLedger: Ledger {
    struct State {
        /// In the order of recording.
        var checkIns: [CheckIn] = []
        var refusals: [Refusal] = []
        /// Per venue and device, the check-in that opened its current duplicate time.
        var presence: [PresenceKey: CheckIn] = [:]
        /// The row id of the next check-in (shown through `ids`, as the databases do).
        var nextRow: Int64 = 1
        /// Counts purges kept, by venue and day.
        var kept: [DayKey: Int] = [:]
        /// A failure every call throws while set (a database that went away).
        var failure: LedgerError?
        /// A failure every write throws while set, reads going on (a full disk).
        var writeFailure: LedgerError?
        /// The audit log, oldest first, and the id the next entry gets.
        var audit: [AuditEntry] = []
        var nextAuditID: Int64 = 1
        /// The kiosks' latest reports, steers and nonces (`KioskFleet`).
        var fleet = InMemoryFleet()
        /// The API's tokens, by name.
        var tokens: [String: APIToken] = [:]

        /// The row id of each check-in recorded (by the id it shows): the log's order after time.
        var rows: [Int64: Int64] = [:]
    }

    struct PresenceKey: Hashable {
        let venue: VenueID
        let device: DeviceID
    }

    struct DayKey: Hashable {
        let venue: VenueID
        let day: CalendarDay
    }

    private let state = Mutex(State())
    let ids: CheckInIDCipher
    /// The console's accounts and sessions (`AccountLedger`), under a lock of their own.
    let consoleAccounts = InMemoryAccounts()

    /// Told of every call's answer (the server's outage watch), if anyone is.
    let observer: (any LedgerObserver)?

    /// An empty ledger whose check-ins show the ids `ids` gives their row ids; `observer` is told
    /// of every call's answer.
    public init(ids: CheckInIDCipher, observer: (any LedgerObserver)? = nil) {
        self.ids = ids
        self.observer = observer
    }

    /// Makes every call throw `failure` until it is set back to nil (tests of 503 pages).
    public func fail(with failure: LedgerError?) {
        state.withLock { $0.failure = failure }
    }

    /// Makes every write (a check-in, an exit, an erasure, a purge, an audit entry, an account
    /// or session change, a transaction) throw `failure` until it is set back to nil, while
    /// reads go on: a full disk (tests of actions that must not happen unaudited).
    public func failWrites(with failure: LedgerError?) {
        state.withLock { $0.writeFailure = failure }
    }

    /// Throws the write failure, if one is set.
    func checkWritable() throws(LedgerError) {
        try locked(writing: true) { _ throws(LedgerError) in }
    }

    /// The refusals kept, oldest first.
    public func refusals() -> [Refusal] {
        state.withLock { $0.refusals }
    }

    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules) async throws(LedgerError) -> Admission {
        try locked(writing: true) { [ids] state throws(LedgerError) in try Self.record(checkIn, rules: rules, ids: ids, &state) }
    }

    /// Records `checkIn` into `state` by `rules`.
    static func record(_ checkIn: NewCheckIn, rules: AdmissionRules, ids: CheckInIDCipher,
                       _ state: inout State) throws(LedgerError) -> Admission {
        let recorded = CheckIn(id: try ids.shownID(row: state.nextRow), entry: checkIn)
        let key = checkIn.device.map { PresenceKey(venue: checkIn.venue, device: $0) }
        // The visit holding the device's key, as it is now (its exit, if any).
        let earlier = key.flatMap { state.presence[$0] }.map { held in state.checkIns.first { $0.id == held.id } ?? held }
        // The rules decide, as they do for the SQL engines (`AdmissionRules`).
        if rules.capacity != nil {
            let inside = state.checkIns.filter { Self.isOpen($0, at: checkIn.venue, since: rules.openSince) }.count
            if let refused = rules.refusal(inside: inside, at: checkIn.time, earlier: earlier) { return refused }
        }
        if let earlier, rules.isDuplicate(at: checkIn.time, of: earlier.time) { return .admitted(.duplicate(of: earlier)) }
        if let key { state.presence[key] = recorded }
        return .admitted(.recorded(Self.append(recorded, to: &state)))
    }

    static func isOpen(_ visit: CheckIn, at venue: VenueID?, since: WallTime?) -> Bool {
        visit.exit == nil && (venue == nil || visit.venue == venue) && (since.map { visit.time >= $0 } ?? true)
    }

    public func checkOut(_ request: CheckOutRequest) async throws(LedgerError) -> CheckOutReport {
        try locked(writing: true) { state throws(LedgerError) in Self.checkOut(request, &state) }
    }

    static func checkOut(_ request: CheckOutRequest, _ state: inout State) -> CheckOutReport {
        let exit = VisitExit(time: request.time, kind: request.kind)
        func end(_ index: Int, _ exit: VisitExit) {
            let visit = state.checkIns[index]
            state.checkIns[index] = visit.ended(exit)
            if let device = visit.device, let key = Optional(PresenceKey(venue: visit.venue, device: device)),
               state.presence[key]?.id == visit.id {
                state.presence[key] = nil
            }
        }
        let single: Int?
        switch request.target {
        case .checkIn(let id):
            single = state.checkIns.firstIndex { $0.id == id }
        case .device(let device, let venue):
            single = state.checkIns.indices.filter { state.checkIns[$0].device == device && state.checkIns[$0].venue == venue }
                .max { (state.checkIns[$0].time, $0) < (state.checkIns[$1].time, $1) }
        case .venue(let venue):
            let open = state.checkIns.indices.filter { isOpen(state.checkIns[$0], at: venue, since: nil) }
            for index in open { end(index, exit) }
            return CheckOutReport(closed: open.count, visit: nil)
        case .enteredBefore(let venue, let cutoff):
            let open = state.checkIns.indices.filter { isOpen(state.checkIns[$0], at: venue, since: nil) && state.checkIns[$0].time < cutoff }
            for index in open { end(index, exit) }
            return CheckOutReport(closed: open.count, visit: nil)
        case .overstayed(let venue, let stay):
            let cutoff = request.time.milliseconds - stay * 1000
            let open = state.checkIns.indices.filter { isOpen(state.checkIns[$0], at: venue, since: nil) && state.checkIns[$0].time.milliseconds <= cutoff }
            for index in open {
                end(index, VisitExit(time: WallTime(milliseconds: state.checkIns[index].time.milliseconds + stay * 1000), kind: request.kind))
            }
            return CheckOutReport(closed: open.count, visit: nil)
        }
        guard let index = single else { return CheckOutReport(closed: 0, visit: nil) }
        if state.checkIns[index].exit != nil { return CheckOutReport(closed: 0, visit: state.checkIns[index]) }
        end(index, exit)
        return CheckOutReport(closed: 1, visit: state.checkIns[index])
    }

    public func openVisits(venue: VenueID?, after position: LogPosition?, limit: Int) async throws(LedgerError) -> [CheckIn] {
        try locked { [ids] state throws(LedgerError) in
            Self.selected(state.checkIns.filter { Self.isOpen($0, at: venue, since: nil) }, CheckInQuery(limit: limit), after: position, state, ids)
        }
    }

    public func openVisits<Value: Sendable>(venue: VenueID?, after position: LogPosition?, limit: Int, into value: consuming Value,
                                            _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value> {
        FoldedPage(try await openVisits(venue: venue, after: position, limit: limit), into: value, fold)
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) async throws(LedgerError) -> [VenueID: Int] {
        try locked { state throws(LedgerError) in
            var counts: [VenueID: Int] = [:]
            for visit in state.checkIns where Self.isOpen(visit, at: venue, since: openSince) { counts[visit.venue, default: 0] += 1 }
            return counts
        }
    }

    public func visits(meeting query: MeetingQuery) async throws(LedgerError) -> [CheckIn] {
        try locked { [ids] state throws(LedgerError) in Self.selected(state.checkIns.filter(query.matches), CheckInQuery(), after: nil, state, ids) }
    }

    private static func append(_ checkIn: CheckIn, to state: inout State) -> CheckIn {
        state.checkIns.append(checkIn)
        state.rows[checkIn.id] = state.nextRow
        state.nextRow += 1
        return checkIn
    }

    public func recordRefusal(_ refusal: Refusal) async throws(LedgerError) {
        try locked(writing: true) { state throws(LedgerError) in state.refusals.append(refusal) }
    }

    /// Keeps the refusal at once (there is nothing to wait for); a failure is dropped.
    public func recordRefusalLater(_ refusal: Refusal) {
        try? locked(writing: true) { state throws(LedgerError) in state.refusals.append(refusal) }
    }

    public func find(id: Int64) async throws(LedgerError) -> CheckIn? {
        try locked { state throws(LedgerError) in state.checkIns.first { $0.id == id } }
    }

    public func checkIns(_ query: CheckInQuery, after position: LogPosition?) async throws(LedgerError) -> [CheckIn] {
        try locked { [ids] state throws(LedgerError) in Self.selected(state.checkIns, query, after: position, state, ids) }
    }

    public func checkIns<Value: Sendable>(_ query: CheckInQuery, after position: LogPosition?, into value: consuming Value,
                                          _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value> {
        FoldedPage(try await checkIns(query, after: position), into: value, fold)
    }

    public func count(_ query: CheckInQuery) async throws(LedgerError) -> Int {
        try locked { state throws(LedgerError) in state.checkIns.filter(query.matches).count }
    }

    public func purge(_ request: PurgeRequest) async throws(LedgerError) -> PurgeReport {
        try locked(writing: !request.dryRun) { state throws(LedgerError) in
            let isOld: (CheckIn) -> Bool = { $0.time < request.checkInsBefore }
            let report = Self.purgeDue(request, state)
            if !request.dryRun {
                if request.keepsCounts {
                    for checkIn in state.checkIns where isOld(checkIn) {
                        state.kept[DayKey(venue: checkIn.venue, day: request.day(of: checkIn.time)), default: 0] += 1
                    }
                }
                state.checkIns.removeAll(where: isOld)
                state.refusals.removeAll { $0.time < request.refusalsBefore }
                state.presence = state.presence.filter { $0.value.time >= request.checkInsBefore }
            }
            return report
        }
    }

    /// What a purge by `request` deletes from `state`, counted.
    static func purgeDue(_ request: PurgeRequest, _ state: State) -> PurgeReport {
        PurgeReport(checkIns: state.checkIns.filter { $0.time < request.checkInsBefore }.count,
                    refusals: state.refusals.filter { $0.time < request.refusalsBefore }.count)
    }

    public func tally(_ query: CheckInQuery) async throws(LedgerError) -> [CheckInTally] {
        try locked { state throws(LedgerError) in
            var counts: [TallyKey: Int] = [:]
            for checkIn in state.checkIns where query.matches(checkIn) {
                counts[TallyKey(venue: checkIn.venue, quarter: CheckInTally.quarter(of: checkIn.time)), default: 0] += 1
            }
            return counts.map { CheckInTally(venue: $0.key.venue, quarter: $0.key.quarter, count: $0.value) }
        }
    }

    private struct TallyKey: Hashable {
        let venue: VenueID
        let quarter: WallTime
    }

    public func keptCounts(venue: VenueID?) async throws(LedgerError) -> [DailyCount] {
        try locked { state throws(LedgerError) in
            state.kept.filter { venue == nil || $0.key.venue == venue }
                .map { DailyCount(venue: $0.key.venue, day: $0.key.day, count: $0.value) }
        }
    }

    public func checkIns(of subject: ErasureSubject) async throws(LedgerError) -> [CheckIn] {
        try locked { [ids] state throws(LedgerError) in
            Self.selected(state.checkIns.filter(Self.isSubject(subject)), CheckInQuery(), after: nil, state, ids)
        }
    }

    public func devices(prefixed prefix: String, limit: Int) async throws(LedgerError) -> [DeviceID] {
        try locked { state throws(LedgerError) in
            var found: Set<DeviceID> = []
            for checkIn in state.checkIns {
                guard let device = checkIn.device, device.rawValue.hasPrefix(prefix) else { continue }
                found.insert(device)
                if found.count == limit { break }
            }
            return Array(found)
        }
    }

    /// Deletes `subject`'s check-ins and duplicate keys from `state`; returns how many.
    static func erase(_ subject: ErasureSubject, _ state: inout State) -> Int {
        let isSubject = Self.isSubject(subject)
        let count = state.checkIns.filter(isSubject).count
        state.checkIns.removeAll(where: isSubject)
        state.presence = state.presence.filter { !isSubject($0.value) }
        return count
    }

    /// Appends `entry` to `state`'s audit log under the next id.
    static func appendAudit(_ entry: AuditEntry, _ state: inout State) -> AuditEntry {
        defer { state.nextAuditID += 1 }
        let appended = AuditEntry(id: state.nextAuditID, time: entry.time, actor: entry.actor, action: entry.action,
                                  subject: entry.subject, detail: entry.detail, rows: entry.rows, source: entry.source)
        state.audit.append(appended)
        return appended
    }

    public func audit(_ query: AuditQuery) async throws(LedgerError) -> [AuditEntry] {
        try locked { state in
            Array(state.audit.reversed().filter { entry in
                (query.from.map { entry.time >= $0 } ?? true) && (query.until.map { entry.time < $0 } ?? true)
                    && (query.before.map { entry.id! < $0 } ?? true)
            }.prefix(query.limit ?? Int.max))
        }
    }

    /// Deletes `state`'s audit entries before `cutoff`; returns how many.
    static func purgeAudit(before cutoff: WallTime, _ state: inout State) -> Int {
        let before = state.audit.count
        state.audit.removeAll { $0.time < cutoff }
        return before - state.audit.count
    }

    public func refusalCounts(since: WallTime) async throws(LedgerError) -> [RefusalCount] {
        try locked { state throws(LedgerError) in
            var counts: [RefusalKey: Int] = [:]
            for refusal in state.refusals where refusal.time >= since {
                counts[RefusalKey(venue: refusal.venue, reason: refusal.reason), default: 0] += 1
            }
            return counts.map { RefusalCount(venue: $0.key.venue, reason: $0.key.reason, count: $0.value) }
        }
    }

    private struct RefusalKey: Hashable {
        let venue: VenueID?
        let reason: RefusalReason
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try locked(writing: true) { [ids, consoleAccounts] state throws(LedgerError) in
            // Both states change only when the body returned: a throw leaves them as they were.
            try consoleAccounts.transact { accounts throws(LedgerError) in
                let transaction = InMemoryTransaction(state: state, accounts: accounts, ids: ids)
                let value = try body(transaction)
                state = transaction.state
                accounts = transaction.accounts
                return value
            }
        }
    }

    /// Whether a check-in is one of `subject`'s. A duplicate key goes with the check-in it names.
    private static func isSubject(_ subject: ErasureSubject) -> (CheckIn) -> Bool {
        switch subject {
        case .device(let device): { $0.device == device }
        case .phone(let phone): { $0.entry.visitor?.phone == phone }
        case .checkIn(let id): { $0.id == id }
        }
    }

    /// Oldest first, then in the order of recording (as the databases order by time and row
    /// id), after `position` when given (its row is the one its id names).
    private static func selected(_ checkIns: [CheckIn], _ query: CheckInQuery, after position: LogPosition?, _ state: State,
                                 _ ids: CheckInIDCipher) -> [CheckIn] {
        let row = { (checkIn: CheckIn) -> Int64 in state.rows[checkIn.id] ?? ids.rowID(shown: checkIn.id) ?? 0 }
        let start = position.map { ($0.time.milliseconds, state.rows[$0.id] ?? ids.rowID(shown: $0.id) ?? 0) }
        let sorted = checkIns.filter { checkIn in
            guard query.matches(checkIn) else { return false }
            guard let start else { return true }
            return (checkIn.time.milliseconds, row(checkIn)) > start
        }.sorted { (a, b) in (a.time.milliseconds, row(a)) < (b.time.milliseconds, row(b)) }
        return query.limit.map { Array(sorted.prefix(max(0, $0))) } ?? sorted
    }

    /// Runs `body` on the state under the lock, failing as `fail` and `failWrites` say, and
    /// tells the observer how it went (internal: the fleet's extension uses it too).
    func locked<T>(writing: Bool = false, _ body: (inout State) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let result: Result<T, LedgerError> = state.withLock { state in
            if let failure = state.failure ?? (writing ? state.writeFailure : nil) { return .failure(failure) }
            do throws(LedgerError) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        observer?.answered(result.map { _ in () })
        return try result.get()
    }
}

extension InMemoryLedger {
    public func visitFlow(_ query: VisitFlowQuery) async throws(LedgerError) -> [VisitFlow] {
        try locked { state throws(LedgerError) in
            var counts: [VisitFlow: Int] = [:]
            for visit in state.checkIns where query.selects(visit) {
                let key = VisitFlow(venue: visit.venue, entered: query.bucket(of: visit.time), exited: visit.exit.map { query.bucket(of: $0.time) }, count: 0)
                counts[key, default: 0] += 1
            }
            return counts.map { VisitFlow(venue: $0.key.venue, entered: $0.key.entered, exited: $0.key.exited, count: $0.value) }
        }
    }
}
