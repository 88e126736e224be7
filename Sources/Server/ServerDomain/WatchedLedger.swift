import SharedDomain
import Synchronization

/// A ledger that tells `report` when the ledger behind it stops answering and when it answers
/// again (`LedgerHealth`): the server logs an outage once, not once per request. Every call
/// goes through unchanged.
public final class WatchedLedger: CheckInLedger {
    private let ledger: any CheckInLedger
    private let health = Mutex(LedgerHealth())
    private let now: @Sendable () -> Int64
    private let report: @Sendable (LedgerHealth.Report) -> Void

    /// Watches `ledger`; `now` is a monotonic clock in milliseconds; `report` is called outside
    /// any lock, on the thread of the call that changed the state.
    public init(_ ledger: any CheckInLedger, now: @escaping @Sendable () -> Int64,
                report: @escaping @Sendable (LedgerHealth.Report) -> Void) {
        self.ledger = ledger
        self.now = now
        self.report = report
    }

    /// Whether an outage is under way.
    public var isInOutage: Bool { health.withLock { $0.outageStart != nil } }

    private func watch<T>(_ call: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        let result = Result { () throws(LedgerError) in try call() }
        note(result.map { _ in () })
        return try result.get()
    }

    /// Tells the health about a call's result and reports a change.
    private func note(_ result: Result<Void, LedgerError>) {
        let change = health.withLock { health in
            switch result {
            case .success: health.succeeded(at: now())
            case .failure(let error): health.failed(error, at: now())
            }
        }
        if let change { report(change) }
    }

    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules,
                       completion: @escaping @Sendable (Result<Admission, LedgerError>) -> Void) {
        ledger.record(checkIn, rules: rules) { result in
            self.note(result.map { _ in () })
            completion(result)
        }
    }

    public func checkOut(_ request: CheckOutRequest, completion: @escaping @Sendable (Result<CheckOutReport, LedgerError>) -> Void) {
        ledger.checkOut(request) { result in
            self.note(result.map { _ in () })
            completion(result)
        }
    }

    public func openVisits(venue: VenueID?, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try watch { () throws(LedgerError) in try ledger.openVisits(venue: venue, body) }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) throws(LedgerError) -> [VenueID: Int] {
        try watch { () throws(LedgerError) in try ledger.occupancy(venue: venue, openSince: openSince) }
    }

    public func visits(meeting query: MeetingQuery) throws(LedgerError) -> [CheckIn] {
        try watch { () throws(LedgerError) in try ledger.visits(meeting: query) }
    }

    public func finishWrites() {
        ledger.finishWrites()
    }

    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws(LedgerError) -> AuditEntry {
        try watch { () throws(LedgerError) in try ledger.appendAudit(entry) }
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try watch { () throws(LedgerError) in try ledger.transaction(body) }
    }

    public func audit(_ query: AuditQuery, _ body: (AuditEntry) -> Bool) throws(LedgerError) {
        try watch { () throws(LedgerError) in try ledger.audit(query, body) }
    }

    public func purgeAudit(before cutoff: WallTime) throws(LedgerError) -> Int {
        try watch { () throws(LedgerError) in try ledger.purgeAudit(before: cutoff) }
    }

    public func recordRefusalLater(_ refusal: Refusal) {
        // Its failure is dropped below this; a refusal never ends or begins an outage.
        ledger.recordRefusalLater(refusal)
    }

    public func recordRefusal(_ refusal: Refusal) throws(LedgerError) {
        try watch { () throws(LedgerError) in try ledger.recordRefusal(refusal) }
    }

    public func find(id: Int64) throws(LedgerError) -> CheckIn? {
        try watch { () throws(LedgerError) in try ledger.find(id: id) }
    }

    public func export(_ query: CheckInQuery, _ body: (CheckIn) -> Bool) throws(LedgerError) {
        try watch { () throws(LedgerError) in try ledger.export(query, body) }
    }

    public func count(_ query: CheckInQuery) throws(LedgerError) -> Int {
        try watch { () throws(LedgerError) in try ledger.count(query) }
    }

    public func purge(_ request: PurgeRequest) throws(LedgerError) -> PurgeReport {
        try watch { () throws(LedgerError) in try ledger.purge(request) }
    }

    public func tally(_ query: CheckInQuery) throws(LedgerError) -> [CheckInTally] {
        try watch { () throws(LedgerError) in try ledger.tally(query) }
    }

    public func keptCounts(venue: VenueID?) throws(LedgerError) -> [DailyCount] {
        try watch { () throws(LedgerError) in try ledger.keptCounts(venue: venue) }
    }

    public func checkIns(of subject: ErasureSubject) throws(LedgerError) -> [CheckIn] {
        try watch { () throws(LedgerError) in try ledger.checkIns(of: subject) }
    }

    public func erase(_ subject: ErasureSubject) throws(LedgerError) -> Int {
        try watch { () throws(LedgerError) in try ledger.erase(subject) }
    }

    public func devices(prefixed prefix: String, limit: Int) throws(LedgerError) -> [DeviceID] {
        try watch { () throws(LedgerError) in try ledger.devices(prefixed: prefix, limit: limit) }
    }
}
