import SharedDomain

/// What one purge deletes: check-ins recorded before `checkInsBefore` (with their device ids and
/// visitor fields) and refused scans before `refusalsBefore`. With `keepsCounts`, the deleted
/// check-ins' counts per venue and day are added to the kept `DailyCount`s in the same
/// transaction, so a count is never lost nor counted twice. With `dryRun`, nothing changes.
public struct PurgeRequest: Hashable, Sendable {
    /// Check-ins before this moment go.
    public var checkInsBefore: WallTime
    /// Refused scans before this moment go.
    public var refusalsBefore: WallTime
    /// Whether per-day counts per venue of the deleted check-ins are kept.
    public var keepsCounts: Bool
    /// Where the kept counts' days begin: midnight in a zone this many seconds east of UTC
    /// (the server's offset at the purge; 32400 for Asia/Seoul).
    public var dayOffsetSeconds: Int
    /// Count what would go; delete nothing.
    public var dryRun: Bool

    /// A request with these cutoffs; counts are not kept and it is not a dry run unless told.
    public init(checkInsBefore: WallTime, refusalsBefore: WallTime, keepsCounts: Bool = false, dayOffsetSeconds: Int = 0,
                dryRun: Bool = false) {
        self.checkInsBefore = checkInsBefore
        self.refusalsBefore = refusalsBefore
        self.keepsCounts = keepsCounts
        self.dayOffsetSeconds = dayOffsetSeconds
        self.dryRun = dryRun
    }

    /// The kept-count day of a check-in at `time` under this request's offset.
    public func day(of time: WallTime) -> CalendarDay {
        CalendarDay(containing: time, offsetSeconds: dayOffsetSeconds)
    }
}

/// What a purge deleted (or, dry, would delete).
public struct PurgeReport: Hashable, Sendable {
    /// Check-ins deleted.
    public let checkIns: Int
    /// Refusals deleted.
    public let refusals: Int

    /// A report of these counts.
    public init(checkIns: Int, refusals: Int) {
        self.checkIns = checkIns
        self.refusals = refusals
    }
}
