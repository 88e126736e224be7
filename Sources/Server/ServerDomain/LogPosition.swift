import SharedDomain

/// Where a page of the log ended: its last check-in's time and id. The next page begins after
/// it in the log's order (time, then the order of recording), so pages never skip or repeat a
/// row however many are recorded meanwhile (keyset paging: each page a seek in the index on
/// time, never an OFFSET, and no read held open between pages).
public struct LogPosition: Hashable, Sendable {
    /// Rows a page holds when its reader does not say (a few hundred kilobytes of check-ins).
    public static let pageSize = 500
    /// Rows a folded page holds (`FoldedPage`): its memory is what the fold makes (an export's
    /// bytes, a few hundred kilobytes), not the check-ins, and each page is a trip to the
    /// ledger's thread and back (two wake-ups, tens of microseconds here): fewer, larger trips.
    public static let foldedPageSize = 2048

    /// The last row's time.
    public let time: WallTime
    /// The last row's id (as shown; each ledger knows the row it names).
    public let id: Int64

    /// The position just after the row of `time` and `id` (a cursor a client sent back).
    public init(time: WallTime, id: Int64) {
        self.time = time
        self.id = id
    }

    /// The position just after `checkIn`.
    public init(after checkIn: CheckIn) {
        time = checkIn.time
        id = checkIn.id
    }
}
