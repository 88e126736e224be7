import SharedDomain

/// How long the visitor log keeps what: check-ins (with their device ids and visitor fields)
/// for `checkIns`, refused scans for the shorter `refusals`. Korea's entry logs had to be
/// deleted after four weeks: 28 days is the default.
public struct RetentionPolicy: Hashable, Sendable {
    /// Seconds a check-in is kept.
    public let checkInSeconds: Int64
    /// Seconds a refused scan is kept.
    public let refusalSeconds: Int64
    /// Whether per-day counts per venue are kept as aggregates after the rows are gone.
    public let keepsDailyCounts: Bool
    /// Seconds an audit entry is kept: a year by default, long enough to answer "who looked at
    /// this visitor's data" for every check-in the log still holds and well after.
    public let auditSeconds: Int64

    /// A year of audit entries.
    public static let standardAuditSeconds: Int64 = 365 * 86_400

    /// Four weeks of check-ins, one week of refusals, counts kept, a year of audit entries.
    public static let standard = RetentionPolicy(checkInSeconds: 28 * 86_400, refusalSeconds: 7 * 86_400, keepsDailyCounts: true)

    /// A policy with these periods (each at least one second).
    public init(checkInSeconds: Int64, refusalSeconds: Int64, keepsDailyCounts: Bool, auditSeconds: Int64 = standardAuditSeconds) {
        precondition(checkInSeconds > 0 && refusalSeconds > 0 && auditSeconds > 0, "retention periods must be positive")
        self.checkInSeconds = checkInSeconds
        self.refusalSeconds = refusalSeconds
        self.keepsDailyCounts = keepsDailyCounts
        self.auditSeconds = auditSeconds
    }

    /// Audit entries recorded before this moment are due for deletion at `now`.
    public func auditCutoff(at now: WallTime) -> WallTime {
        WallTime(milliseconds: now.milliseconds - auditSeconds * 1000)
    }

    /// Check-ins recorded before this moment are due for deletion at `now`.
    public func checkInCutoff(at now: WallTime) -> WallTime {
        WallTime(milliseconds: now.milliseconds - checkInSeconds * 1000)
    }

    /// Refusals recorded before this moment are due for deletion at `now`.
    public func refusalCutoff(at now: WallTime) -> WallTime {
        WallTime(milliseconds: now.milliseconds - refusalSeconds * 1000)
    }

    /// The purge this policy asks for at `now`: everything past its period, daily counts kept
    /// when the policy keeps them (days of a zone `dayOffsetSeconds` east of UTC).
    public func purgeRequest(at now: WallTime, dayOffsetSeconds: Int = 0, dryRun: Bool = false) -> PurgeRequest {
        PurgeRequest(checkInsBefore: checkInCutoff(at: now), refusalsBefore: refusalCutoff(at: now), keepsCounts: keepsDailyCounts,
                     dayOffsetSeconds: dayOffsetSeconds, dryRun: dryRun)
    }
}
