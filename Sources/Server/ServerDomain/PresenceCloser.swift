import SharedDomain
import Synchronization

/// Ends visits nobody ended (issue 32), while the server runs: `max-stay` (a visit without an
/// exit ends at its entry plus the stay; by default the duplicate time) and `close-at` (every
/// visit entered before the venue's closing time ends at it), both recorded as `automatic`.
/// Each pass is idempotent and works from the clock alone, so a server that was down at 23:00
/// ends those visits at 23:00 when it starts. Tests drive it with a test clock.
public final class PresenceCloser: Sendable {
    /// One pass: what it asked and what the ledger answered.
    public struct Pass: Sendable {
        /// When it ran.
        public let at: WallTime
        /// Visits it ended, or why it could not.
        public let result: Result<Int, LedgerError>
    }

    /// The visits it ends.
    public let ledger: any VisitLedger
    /// The venues and their settings (unlisted venues take the defaults).
    public let venues: VenueDirectory
    /// The clock passes are due by.
    public let clock: any WallClock
    /// Seconds between passes.
    public let intervalSeconds: Int64
    /// The zone's offset at a moment (closing times are local).
    private let zoneOffset: @Sendable (WallTime) -> Int
    private let report: @Sendable (Pass) -> Void

    /// A closer of `ledger`'s visits by `venues`' settings, a pass every `intervalSeconds`.
    public init(ledger: any VisitLedger, venues: VenueDirectory, clock: any WallClock, intervalSeconds: Int64 = 60,
                zoneOffset: @escaping @Sendable (WallTime) -> Int = { _ in 0 }, report: @escaping @Sendable (Pass) -> Void = { _ in }) {
        precondition(intervalSeconds > 0, "the interval must be positive")
        self.ledger = ledger
        self.venues = venues
        self.clock = clock
        self.intervalSeconds = intervalSeconds
        self.zoneOffset = zoneOffset
        self.report = report
    }

    /// The latest closing time at or before `now` for a venue closing at `minute` (local).
    public func lastClosing(atMinute minute: Int, before now: WallTime) -> WallTime {
        let offset = Int64(zoneOffset(now))
        let local = now.seconds + offset
        let midnight = local - ((local % 86_400) + 86_400) % 86_400
        var closing = midnight + Int64(minute) * 60
        if closing > local { closing -= 86_400 }
        return WallTime(seconds: closing - offset)
    }

    /// Ends what is due at the clock's now, once; returns how many visits it ended.
    @discardableResult
    public func closeNow() async -> Pass {
        let now = clock.now()
        let result: Result<Int, LedgerError>
        do throws(LedgerError) {
            var ended = 0
            // Every venue with someone inside, configured or not (unlisted ones by the defaults).
            // A write only when a count says one is due: an idle server commits nothing.
            for (venue, open) in try await ledger.occupancy(venue: nil, openSince: nil) {
                guard let profile = venues.profile(for: venue) else { continue }
                if let minute = profile.presence.closeAtMinute {
                    let closing = lastClosing(atMinute: minute, before: now)
                    if try await inside(venue, since: closing) < open {
                        ended += try await checkOut(CheckOutRequest(.enteredBefore(venue, cutoff: closing), at: closing, kind: .automatic))
                    }
                }
                // Due: entered at or before now minus the stay (`overstayed`), so live is after it.
                let live = WallTime(milliseconds: now.milliseconds - profile.maxStaySeconds * 1000 + 1)
                if try await inside(venue, since: live) < (try await inside(venue, since: nil)) {
                    ended += try await checkOut(CheckOutRequest(.overstayed(venue, maxStaySeconds: profile.maxStaySeconds), at: now,
                                                                kind: .automatic))
                }
            }
            result = .success(ended)
        } catch {
            result = .failure(error)
        }
        let pass = Pass(at: now, result: result)
        report(pass)
        return pass
    }

    private func inside(_ venue: VenueID, since: WallTime?) async throws(LedgerError) -> Int {
        try await ledger.occupancy(venue: venue, openSince: since)[venue] ?? 0
    }

    private func checkOut(_ request: CheckOutRequest) async throws(LedgerError) -> Int {
        try await ledger.checkOut(request).closed
    }

    /// A pass now, then one every `intervalSeconds`, until the task is cancelled (or `sleep`
    /// throws: `serve` cancels its sleep when the server stops, never a pass under way).
    public func run(sleep: @Sendable (Duration) async throws -> Void) async throws {
        while true {
            try Task.checkCancellation()
            await closeNow()
            try await sleep(.seconds(intervalSeconds))
        }
    }
}
