import SharedDomain

/// Makes a value of check-ins one row at a time (an export's bytes, a count, a list): called on
/// the ledger's own thread as each row is read, so it must not block or wait.
public typealias CheckInFold<Value> = @Sendable (inout Value, CheckIn) -> Void

/// A page of check-ins as a `CheckInFold` made it, where the ledger read the rows.
///
/// Why: a long read (an export, the evacuation roll) handed to its reader as arrays of
/// `CheckIn` built on the ledger's thread and taken apart on another, row by row through an
/// async call, cost 12–13 % more CPU than formatting each row as it was read (docs/BENCHMARKS.md,
/// issue 38): every row's strings were allocated on one core and freed on the other, copied
/// into and out of the page, and each row an async call. Folded, only the value crosses.
public struct FoldedPage<Value: Sendable>: Sendable {
    /// What the fold made of the page's rows.
    public var value: Value
    /// How many rows the page read (fewer than asked for: it was the last).
    public let count: Int
    /// The position just after the page's last row; nil when it read none.
    public let last: LogPosition?

    /// A page of `count` rows that made `value`, the last at `last`.
    public init(value: Value, count: Int, last: LogPosition?) {
        self.value = value
        self.count = count
        self.last = last
    }

    /// `rows` folded into `value` by `fold`, in their order (a ledger that already holds its
    /// rows as values: the memory one, a single check-in).
    public init(_ rows: [CheckIn], into value: Value, _ fold: CheckInFold<Value>) {
        var value = value
        for row in rows { fold(&value, row) }
        self.init(value: value, count: rows.count, last: rows.last.map(LogPosition.init(after:)))
    }
}

/// Pages of check-ins kept as they are, for readers that take them one at a time
/// (`VisitLog.eachCheckIn`, `VisitLedger.eachOpenVisit`, the evacuation roll's rows).
enum CheckInRows {
    /// The fold that keeps each check-in.
    static let keep: CheckInFold<[CheckIn]> = { page, row in page.append(row) }

    /// Hands `page`'s check-ins to `body` in order and empties the page (its capacity kept for
    /// the next); false as soon as `body` returns false.
    static func hand(_ page: inout [CheckIn], to body: (CheckIn) async throws(LedgerError) -> Bool) async throws(LedgerError) -> Bool {
        defer { page.removeAll(keepingCapacity: true) }
        for row in page where !(try await body(row)) { return false }
        return true
    }
}
