import SharedDomain

/// Port: the visitor log as operators read it (exports, counts, tallies, kept counts, a device
/// by the start of its id). Every engine implements it and passes `VisitLogContract`.
public protocol VisitLog: Sendable {
    /// The check-ins `query` selects, oldest first (by time, then order of recording), after
    /// `position` when given, at most `query.limit` (nil: all of them; readers of the whole log
    /// page with `eachCheckIn`).
    func checkIns(_ query: CheckInQuery, after position: LogPosition?) async throws(LedgerError) -> [CheckIn]

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
        var left = query.limit.map { max(0, $0) } ?? Int.max
        var position: LogPosition?
        while left > 0 {
            var page = query
            page.limit = min(left, pageSize)
            let rows = try await checkIns(page, after: position)
            for row in rows where !(try await body(row)) { return }
            left -= rows.count
            guard rows.count == page.limit, let last = rows.last else { return }
            position = LogPosition(after: last)
        }
    }
}
