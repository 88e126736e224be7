import SharedDomain
import Synchronization

/// Enforces a `RetentionPolicy` while the server runs: a purge at start, then one a day (an
/// hour after a failure), at the injected clock's times; one that deletes anything leaves an
/// audit entry by `server` (`LogPurge`). Tests drive it with a test clock and a
/// `sleep` that moves that clock: a month of days runs in milliseconds.
public final class RetentionService: Sendable {
    /// One purge the service ran: when, what it asked, and what the ledger answered.
    public struct Purge: Sendable {
        /// When it ran (the clock's now).
        public let at: WallTime
        /// What it asked the ledger to delete.
        public let request: PurgeRequest
        /// What was deleted, or why nothing was.
        public let result: Result<PurgeReport, LedgerError>
        /// Audit entries deleted (older than the policy's audit retention), or why none were.
        public let audit: Result<Int, LedgerError>
    }

    /// What the service is doing, for status reports.
    public enum State: Sendable {
        /// Not started, or stopped.
        case idle
        /// Purging now.
        case purging
        /// Waiting until the next purge is due.
        case waiting(until: WallTime)
    }

    /// What it purges, and the transactions its audit entry goes in.
    public let ledger: any ErasureLedger & LedgerTransactions
    /// What is kept how long.
    public let policy: RetentionPolicy
    /// The clock purges are due by and whose now their cutoffs count back from.
    public let clock: any WallClock
    /// Seconds between purges (a day).
    public let intervalSeconds: Int64
    /// Seconds until another try after a failed purge.
    public let retrySeconds: Int64
    /// The longest single sleep: a wall clock that jumps, or a host that slept, is noticed this soon.
    public let napSeconds: Int64
    /// The zone's offset at a moment, for the days of kept counts.
    private let dayOffset: @Sendable (WallTime) -> Int
    /// Told about every purge (the server logs it).
    private let report: @Sendable (Purge) -> Void
    private let state = Mutex(State.idle)
    private let last = Mutex<Purge?>(nil)

    /// A service purging `ledger` by `policy` every `intervalSeconds` of `clock`.
    public init(ledger: any ErasureLedger & LedgerTransactions, policy: RetentionPolicy, clock: any WallClock, intervalSeconds: Int64 = 86_400,
                retrySeconds: Int64 = 3600, napSeconds: Int64 = 3600, dayOffset: @escaping @Sendable (WallTime) -> Int = { _ in 0 },
                report: @escaping @Sendable (Purge) -> Void = { _ in }) {
        precondition(intervalSeconds > 0 && retrySeconds > 0 && napSeconds > 0, "service intervals must be positive")
        self.ledger = ledger
        self.policy = policy
        self.clock = clock
        self.intervalSeconds = intervalSeconds
        self.retrySeconds = retrySeconds
        self.napSeconds = napSeconds
        self.dayOffset = dayOffset
        self.report = report
    }

    /// What the service is doing now.
    public var current: State { state.withLock { $0 } }

    /// The last purge it ran, if any.
    public var lastPurge: Purge? { last.withLock { $0 } }

    /// Purges what the policy says is due at the clock's now, once.
    @discardableResult
    public func purgeNow() async -> Purge {
        state.withLock { $0 = .purging }
        let now = clock.now()
        let request = policy.purgeRequest(at: now, dayOffsetSeconds: dayOffset(now))
        // As an operator's purge, audited (`LogPurge`), by the server itself, when anything was due.
        let purged: Result<LogPurge.Result, LedgerError>
        do throws(LedgerError) {
            purged = .success(try await LogPurge(trail: AuditTrail(ledger: ledger, actor: .server, clock: clock), ledger: ledger, policy: policy)
                .run(request, at: now, always: false))
        } catch {
            purged = .failure(error)
        }
        let purge = Purge(at: now, request: request, result: purged.map(\.report), audit: purged.map(\.auditEntries))
        last.withLock { $0 = purge }
        report(purge)
        return purge
    }

    /// Purges now, then whenever the next purge is due, until the task is cancelled (or
    /// `sleep` throws). `sleep` waits the duration it is given (`serve` sleeps on its clock and
    /// cancels the sleep when the server stops, never a purge under way).
    public func run(sleep: @Sendable (Duration) async throws -> Void) async throws {
        defer { state.withLock { $0 = .idle } }
        var due = clock.now()
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            if now >= due {
                let purge = await purgeNow()
                let wait = if case .success = purge.result { intervalSeconds } else { retrySeconds }
                due = WallTime(milliseconds: clock.now().milliseconds + wait * 1000)
            } else if due.milliseconds - now.milliseconds > intervalSeconds * 1000 {
                // The wall clock went back: the next purge is never more than a day away.
                due = WallTime(milliseconds: now.milliseconds + intervalSeconds * 1000)
            }
            state.withLock { $0 = .waiting(until: due) }
            let remaining = due.milliseconds - clock.now().milliseconds
            try await sleep(.milliseconds(max(1, min(remaining, napSeconds * 1000))))
        }
    }
}
