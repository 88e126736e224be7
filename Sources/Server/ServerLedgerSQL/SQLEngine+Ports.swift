import ServerDomain
import SharedDomain

// Every port of the ledger, written once for both SQL engines over `SQLEngine`'s sessions. An
// engine conforms to a port by these (its own method of the same name, where it has one, wins).

extension SQLEngine {
    // MARK: VisitLedger

    public func record(_ checkIn: NewCheckIn, rules: AdmissionRules) async throws(LedgerError) -> Admission {
        try await writing { [sql] session throws(LedgerError) in try sql.record(checkIn, rules: rules, on: session) }
    }

    public func checkOut(_ request: CheckOutRequest) async throws(LedgerError) -> CheckOutReport {
        try await writing { [sql] session throws(LedgerError) in try sql.checkOut(request, on: session) }
    }

    public func find(id: Int64) async throws(LedgerError) -> CheckIn? {
        try await reading { [sql] session throws(LedgerError) in try sql.find(id: id, on: session) }
    }

    public func openVisits(venue: VenueID?, after position: LogPosition?, limit: Int) async throws(LedgerError) -> [CheckIn] {
        try await reading { [sql] session throws(LedgerError) in try sql.openVisits(venue: venue, after: position, limit: limit, on: session) }
    }

    public func openVisits<Value: Sendable>(venue: VenueID?, after position: LogPosition?, limit: Int, into value: consuming Value,
                                            _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value> {
        try await foldedPage(into: value, fold) { sql, session, each throws(LedgerError) in
            try sql.openVisits(venue: venue, after: position, limit: limit, on: session, each)
        }
    }

    public func occupancy(venue: VenueID?, openSince: WallTime?) async throws(LedgerError) -> [VenueID: Int] {
        try await reading { [sql] session throws(LedgerError) in try sql.occupancy(venue: venue, openSince: openSince, on: session) }
    }

    public func visits(meeting query: MeetingQuery) async throws(LedgerError) -> [CheckIn] {
        try await reading { [sql] session throws(LedgerError) in try sql.visits(meeting: query, on: session) }
    }

    // MARK: VisitLog

    public func checkIns(_ query: CheckInQuery, after position: LogPosition?) async throws(LedgerError) -> [CheckIn] {
        try await reading { [sql] session throws(LedgerError) in try sql.checkIns(query, after: position, on: session) }
    }

    public func checkIns<Value: Sendable>(_ query: CheckInQuery, after position: LogPosition?, into value: consuming Value,
                                          _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value> {
        try await foldedPage(into: value, fold) { sql, session, each throws(LedgerError) in
            try sql.checkIns(query, after: position, on: session, each)
        }
    }

    /// A page `read` hands row by row, folded into `value` on the reading thread (the folded
    /// reads of both ports). The value moves there and back (`Handoff`: an export's buffer is
    /// reused, not copied); the fold's state is plain locals, not a generic helper type, whose
    /// methods, unspecialized here, looked its metadata up for every row.
    private func foldedPage<Value: Sendable>(
        into value: consuming Value, _ fold: @escaping CheckInFold<Value>,
        _ read: @escaping @Sendable (SQLLedger, any SQLSession, (CheckIn) -> Void) throws(LedgerError) -> Void
    ) async throws(LedgerError) -> FoldedPage<Value> {
        let handoff = Handoff(value)
        return try await reading { [sql] session throws(LedgerError) in
            var value = handoff.take(), count = 0, last: LogPosition?
            try read(sql, session) { row in
                fold(&value, row)
                count += 1
                last = LogPosition(after: row)
            }
            return FoldedPage(value: value, count: count, last: last)
        }
    }

    public func count(_ query: CheckInQuery) async throws(LedgerError) -> Int {
        try await reading { [sql] session throws(LedgerError) in try sql.count(query, on: session) }
    }

    public func tally(_ query: CheckInQuery) async throws(LedgerError) -> [CheckInTally] {
        try await reading { [sql] session throws(LedgerError) in try sql.tally(query, on: session) }
    }

    public func keptCounts(venue: VenueID?) async throws(LedgerError) -> [DailyCount] {
        try await reading { [sql] session throws(LedgerError) in try sql.keptCounts(venue: venue, on: session) }
    }

    public func devices(prefixed prefix: String, limit: Int) async throws(LedgerError) -> [DeviceID] {
        try await reading { [sql] session throws(LedgerError) in try sql.devices(prefixed: prefix, limit: limit, on: session) }
    }

    // MARK: RefusalLog

    public func recordRefusal(_ refusal: Refusal) async throws(LedgerError) {
        try await writing { [sql] session throws(LedgerError) in try sql.recordRefusal(refusal, on: session) }
    }

    public func recordRefusalLater(_ refusal: Refusal) {
        writeLater { [sql] session throws(LedgerError) in try sql.recordRefusal(refusal, on: session) }
    }

    public func refusalCounts(since: WallTime) async throws(LedgerError) -> [RefusalCount] {
        try await reading { [sql] session throws(LedgerError) in try sql.refusalCounts(since: since, on: session) }
    }

    // MARK: AuditLog

    public func audit(_ query: AuditQuery) async throws(LedgerError) -> [AuditEntry] {
        try await reading { [sql] session throws(LedgerError) in try sql.audit(query, on: session) }
    }

    // MARK: ErasureLedger

    public func checkIns(of subject: ErasureSubject) async throws(LedgerError) -> [CheckIn] {
        try await reading { [sql] session throws(LedgerError) in try sql.checkIns(of: subject, on: session) }
    }

    /// Deletes what the request's cutoffs select in one transaction, first adding the deleted
    /// check-ins to the kept per-day counts when asked; a dry run only counts, reading.
    public func purge(_ request: PurgeRequest) async throws(LedgerError) -> PurgeReport {
        if request.dryRun { return try await reading { [sql] session throws(LedgerError) in try sql.purgeDue(request, on: session) } }
        return try await writing { [sql] session throws(LedgerError) in
            PurgeReport(checkIns: try sql.deleteCheckIns(before: request.checkInsBefore, request, on: session),
                        refusals: try sql.delete(.refusals, before: request.refusalsBefore, dryRun: false, on: session))
        }
    }

    // MARK: LedgerTransactions

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let (value, erased) = try await observer.watching { () async throws(LedgerError) in
            try await writeAlone { [sql] session throws(LedgerError) in
                let transaction = SQLTransaction(sql, on: session)
                return (try body(transaction), transaction.erased)
            }
        }
        if erased { await self.erased() }
        return value
    }

    // MARK: AccountLedger

    public func addAccount(_ account: ConsoleAccount) async throws(LedgerError) -> Bool {
        try await writing { [sql] session throws(LedgerError) in try sql.addAccount(account, on: session) }
    }

    public func account(named name: String) async throws(LedgerError) -> ConsoleAccount? {
        try await reading { [sql] session throws(LedgerError) in try sql.account(named: name, on: session) }
    }

    public func accounts() async throws(LedgerError) -> [ConsoleAccount] {
        try await reading { [sql] session throws(LedgerError) in try sql.accounts(on: session) }
    }

    public func changeAccount(named name: String, _ change: AccountChange) async throws(LedgerError) -> Bool {
        try await writing { [sql] session throws(LedgerError) in try sql.changeAccount(named: name, change, on: session) }
    }

    public func removeAccount(named name: String) async throws(LedgerError) -> Bool {
        try await writing { [sql] session throws(LedgerError) in try sql.removeAccount(named: name, on: session) }
    }

    public func addSession(_ console: ConsoleSession) async throws(LedgerError) {
        try await writing { [sql] session throws(LedgerError) in try sql.addSession(console, on: session) }
    }

    public func session(idHash: String) async throws(LedgerError) -> ConsoleSession? {
        try await reading { [sql] session throws(LedgerError) in try sql.session(idHash: idHash, on: session) }
    }

    public func touchSession(idHash: String, at time: WallTime) async throws(LedgerError) {
        try await writing { [sql] session throws(LedgerError) in try sql.touchSession(idHash: idHash, at: time, on: session) }
    }

    public func removeSession(idHash: String) async throws(LedgerError) {
        try await writing { [sql] session throws(LedgerError) in try sql.removeSession(idHash: idHash, on: session) }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) async throws(LedgerError) -> Int {
        try await writing { [sql] session throws(LedgerError) in
            try sql.purgeSessions(idleBefore: idleBefore, createdBefore: createdBefore, on: session)
        }
    }
}
