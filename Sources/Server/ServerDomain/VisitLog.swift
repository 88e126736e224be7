import SharedDomain

/// Port: the visitor log as operators read it (exports, counts, tallies, kept counts, a device
/// by the start of its id). Every engine implements it and passes `VisitLogContract`.
public protocol VisitLog: Sendable {
    /// The check-ins `query` selects, oldest first (by time, then order of recording), after
    /// `position` when given, at most `query.limit` (nil: all of them; readers of the whole log
    /// page with `eachCheckIn`).
    func checkIns(_ query: CheckInQuery, after position: LogPosition?) async throws(LedgerError) -> [CheckIn]

    /// The same page as `checkIns(_:after:)`, each check-in handed to `fold` with `value` as its
    /// row is read, on the ledger's thread: a page made into what its reader needs (an export's
    /// bytes) where the rows are (`FoldedPage` says why). Readers of the whole log page with
    /// `eachPage`.
    func checkIns<Value: Sendable>(_ query: CheckInQuery, after position: LogPosition?, into value: consuming Value,
                                   _ fold: @escaping CheckInFold<Value>) async throws(LedgerError) -> FoldedPage<Value>

    /// How many check-ins `query` selects (its `limit` ignored).
    func count(_ query: CheckInQuery) async throws(LedgerError) -> Int

    /// The check-ins `query` selects (its `limit` ignored), counted per venue and quarter hour
    /// (`CheckInTally`), in no particular order: what counts by hour, day and venue add up.
    func tally(_ query: CheckInQuery) async throws(LedgerError) -> [CheckInTally]

    /// The daily counts purges kept (of `venue`, or of every venue), in no particular order.
    func keptCounts(venue: VenueID?) async throws(LedgerError) -> [DailyCount]

    /// The devices with check-ins whose id begins with `prefix`, at most `limit` of them, in
    /// no particular order: how `erase --device` finds the device an operator copied from the
    /// table (`DeviceID.shown`), and sees that a prefix is ambiguous.
    func devices(prefixed prefix: String, limit: Int) async throws(LedgerError) -> [DeviceID]
}

extension VisitLog {
    /// Every check-in `query` selects (at most its limit), oldest first, read a page at a time
    /// and handed to `body` until it returns false: an export of any size in constant memory,
    /// no read held open for the reader's pace (a client's, a pipe's).
    public func eachCheckIn(_ query: CheckInQuery, pageSize: Int = LogPosition.pageSize,
                            _ body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) {
        try await eachPage(query, pageSize: pageSize, into: [CheckIn](), CheckInRows.keep) { page throws(LedgerError) in
            try await CheckInRows.hand(&page, to: body)
        }
    }

    /// Every check-in `query` selects (at most its limit), oldest first, folded into `value` by
    /// `fold` a page at a time where the ledger reads them; after each page `body` takes the
    /// value (writes the page's bytes and empties them) and returns false to stop; returns the
    /// value as the last page left it. The long reads' way (exports): no check-in crosses a
    /// thread (`FoldedPage`).
    @discardableResult
    public func eachPage<Value: Sendable>(_ query: CheckInQuery, pageSize: Int = LogPosition.foldedPageSize, into value: consuming Value,
                                          _ fold: @escaping CheckInFold<Value>,
                                          _ body: (inout Value) async throws(LedgerError) -> Bool) async throws(LedgerError) -> Value {
        var left = query.limit.map { max(0, $0) } ?? Int.max
        var position: LogPosition?
        while left > 0 {
            var page = query
            page.limit = min(left, pageSize)
            // Moved, never copied, to the ledger and back: a copy would make the next change
            // to its buffer a new allocation (`Handoff`).
            let read = try await checkIns(page, after: position, into: consume value, fold)
            let count = read.count, last = read.last
            value = (consume read).value
            guard try await body(&value) else { return value }
            left -= count
            guard count == page.limit, let last else { return value }
            position = last
        }
        return value
    }
}
