import SharedDomain

/// The server's periodic look at its fleet (`serve` looks every 15 s): every kiosk judged now,
/// the ones turning offline or back (logged once each, not at every look), and each change of
/// a kiosk's light or problems announced to the ledger (`KioskFleet.announce`: the `kiosk`
/// webhook event, told once by whichever server of the database sees the change first).
/// Lateness and silence come from time passing, not from a report, so a look is what notices
/// them; a report's news (paused, a clock gone wrong) is told by the next look too.
public struct KioskWatch: Sendable {
    /// What one server remembers between looks.
    public struct Memory: Sendable {
        var offline = OfflineWatch()

        /// A server that has looked at nothing yet.
        public init() {}
    }

    /// What one look found.
    public struct Look: Sendable, Equatable {
        /// Kiosks that turned offline since the last look, and their silence (seconds).
        public var turnedOffline: [KioskKey: Int64] = [:]
        /// Kiosks offline at the last look that report again.
        public var back: [KioskKey] = []
        /// Changes this server wrote (another server may have told the rest).
        public var announced: [KioskAnnouncement] = []
        /// Announcements the ledger refused (unavailable): tried again at the next look.
        public var failed = 0
    }

    /// Announcements written in one transaction at most.
    static let batch = 256

    let fleet: any KioskFleet
    let judge: KioskJudge
    let clock: any WallClock

    /// A watch of `fleet`, judged by `judge` at `clock`'s times.
    public init(fleet: any KioskFleet, judge: KioskJudge, clock: any WallClock) {
        self.fleet = fleet
        self.judge = judge
        self.clock = clock
    }

    /// One look; nil when the fleet cannot be read (nothing remembered changes).
    public func look(_ memory: inout Memory) async -> Look? {
        guard let records = try? await fleet.kiosks(venue: nil) else { return nil }
        let now = clock.now()
        var look = Look()
        var states: [KioskKey: KioskState] = [:]
        var silence: [KioskKey: Int64] = [:]
        var changes: [KioskAnnouncement] = []
        for record in records {
            let verdict = judge.verdict(on: record, at: now)
            states[record.key] = verdict.state
            silence[record.key] = verdict.silenceSeconds
            // The listing carries what the ledger last told: only a difference is written, so a
            // quiet fleet (and a restarted server) costs one read a look.
            let announcement = KioskAnnouncement(key: record.key, verdict: verdict)
            if record.announced != announcement.stored { changes.append(announcement) }
        }
        // A batch a transaction: a fleet that turns late at once (the server's network was away)
        // is a few write transactions, not one per kiosk, and a stopping server waits for one.
        var start = 0
        while start < changes.count, !Task.isCancelled {
            let batch = Array(changes[start..<min(start + Self.batch, changes.count)])
            do throws(LedgerError) {
                look.announced += try await fleet.announce(batch, at: now)
            } catch {
                look.failed += batch.count
            }
            start += Self.batch
        }
        let changed = memory.offline.look(states)
        for key in changed.turnedOffline { look.turnedOffline[key] = silence[key] ?? 0 }
        look.back = changed.back
        return look
    }
}
