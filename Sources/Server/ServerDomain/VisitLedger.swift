import SharedDomain

/// Port: visits as a check-in makes and ends them, and who is inside. Every engine implements
/// it (SQLite, PostgreSQL, memory for tests) and passes `VisitLedgerContract`.
///
/// One async style (docs/DEVELOPMENT.md): each call suspends its task until the ledger
/// answered; a write answers after its commit, a read sees only committed rows. No call blocks
/// a thread of Swift's pool: engines run blocking work on their own threads (SQLite's writer,
/// a `BlockingPool`), one trip there per call.
public protocol VisitLedger: Sendable {
    /// Records `checkIn` by `rules` and returns once committed: unless its device already
    /// checked in at its venue less than `rules.duplicateSeconds` before `checkIn.time` (then
    /// nothing is written and the earlier check-in comes back), or the venue holds its capacity
    /// (`.full`; a device already inside within the duplicate time still gets its earlier
    /// check-in). The decision and the write are one atomic step in the database (a unique key
    /// on venue and device and a conditional upsert; the capacity's count in the inserting
    /// transaction), so two servers handling one device at once record one check-in and never
    /// admit one too many. The rules themselves are `AdmissionRules`'. A check-in without a
    /// device is always recorded.
    func record(_ checkIn: NewCheckIn, rules: AdmissionRules) async throws(LedgerError) -> Admission

    /// Records the exits `request` selects, each at most once: a visit already out is left as
    /// it was (the report says so), and its device's duplicate key is released, so the device's
    /// next scan starts a new visit. Returns once committed.
    func checkOut(_ request: CheckOutRequest) async throws(LedgerError) -> CheckOutReport

    /// The check-in with id `id`, if it is (still) recorded.
    func find(id: Int64) async throws(LedgerError) -> CheckIn?

    /// Open visits (of `venue`, or of every venue), oldest first (by time, then id), after
    /// `position` when given, at most `limit`: one page. Works on a ledger opened read-only.
    func openVisits(venue: VenueID?, after position: LogPosition?, limit: Int) async throws(LedgerError) -> [CheckIn]

    /// The same page as `openVisits(venue:after:limit:)`, each visit handed to `fold` with
    /// `value` as its row is read, on the ledger's thread (`FoldedPage` says why).
    func openVisits<Value: Sendable>(venue: VenueID?, after position: LogPosition?, limit: Int, into value: consuming Value,
                                     _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value>

    /// Open visits per venue (of `venue` or every venue), counting only those entered at or
    /// after `openSince` when given; venues with none are absent. Counted from the rows (an
    /// index of open visits), so it equals the open visits after any crash: the one count of
    /// who is inside.
    func occupancy(venue: VenueID?, openSince: WallTime?) async throws(LedgerError) -> [VenueID: Int]

    /// The visits `query` selects (at one venue, meeting an interval), oldest first.
    func visits(meeting query: MeetingQuery) async throws(LedgerError) -> [CheckIn]
}

extension VisitLedger {
    /// Records `checkIn` with duplicates decided by `duplicateSeconds` and no capacity.
    public func record(_ checkIn: NewCheckIn, duplicateSeconds: Int64) async throws(LedgerError) -> RecordOutcome {
        switch try await record(checkIn, rules: AdmissionRules(duplicateSeconds: duplicateSeconds)) {
        case .admitted(let outcome): return outcome
        case .full: throw LedgerError(.failed, "a check-in without a capacity was refused as full")
        }
    }

    /// Every open visit (of `venue`), oldest first, read a page at a time and handed to `body`
    /// until it returns false: any number of visits in constant memory, no read held open for
    /// `body`'s pace.
    public func eachOpenVisit(venue: VenueID?, pageSize: Int = LogPosition.pageSize,
                              _ body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) {
        try await eachOpenPage(venue: venue, pageSize: pageSize, into: [CheckIn](), CheckInRows.keep) { page throws(LedgerError) in
            try await CheckInRows.hand(&page, to: body)
        }
    }

    /// Every open visit (of `venue`), oldest first, folded into `value` by `fold` a page at a
    /// time where the ledger reads them; after each page `body` takes the value and returns
    /// false to stop; returns the value as the last page left it (`VisitLog.eachPage`'s way,
    /// for the evacuation roll).
    @discardableResult
    public func eachOpenPage<Value: Sendable>(venue: VenueID?, pageSize: Int = LogPosition.foldedPageSize, into value: consuming Value,
                                              _ fold: @escaping CheckInFold<Value>,
                                              _ body: (inout Value) async throws(LedgerError) -> Bool) async throws(LedgerError) -> Value {
        var position: LogPosition?
        while true {
            // Moved, never copied (`VisitLog.eachPage`).
            let read = try await openVisits(venue: venue, after: position, limit: pageSize, into: consume value, fold)
            let count = read.count, last = read.last
            value = (consume read).value
            guard try await body(&value), count == pageSize, let last else { return value }
            position = last
        }
    }
}
