import SharedDomain

/// The counts door staff watch: check-ins today (since local midnight), in the last hour, and
/// both per venue, read from the ledger (so several servers sharing one log agree), plus the
/// log's whole size. `qrcheckin-server status` prints them; `/metrics` exports them as gauges.
public struct LiveCounts: Hashable, Sendable {
    /// One venue's counts.
    public struct Venue: Hashable, Sendable {
        /// The venue.
        public let venue: VenueID
        /// Check-ins since `dayStart`.
        public let today: Int
        /// Check-ins in the hour before `at`.
        public let lastHour: Int
    }

    /// When the counts were read.
    public let at: WallTime
    /// The start of today (local midnight).
    public let dayStart: WallTime
    /// Check-ins since `dayStart`.
    public let today: Int
    /// Check-ins in the hour before `at`.
    public let lastHour: Int
    /// Every venue with a check-in today or in the last hour, by venue id.
    public let venues: [Venue]
    /// Check-ins in the log (every day the retention keeps).
    public let total: Int
    /// Who is inside (issue 32): every venue with an open visit or a capacity, by venue id.
    public var presence: [Presence] = []

    /// One venue's occupancy: open visits (entered within its `max-stay`) and its capacity.
    public struct Presence: Hashable, Sendable {
        public let venue: VenueID
        public let inside: Int
        public let capacity: Int?
    }

    /// The counts with `presence` read from `ledger` by `venues`' settings at `at`.
    public func withPresence(from ledger: any VisitLedger, venues directory: VenueDirectory) async throws(LedgerError) -> LiveCounts {
        var copy = self
        copy.presence = try await Self.presence(from: ledger, venues: directory, at: at)
        return copy
    }

    /// Every venue with an open visit (within its `max-stay`) or a configured capacity.
    public static func presence(from ledger: any VisitLedger, venues directory: VenueDirectory, at now: WallTime) async throws(LedgerError) -> [Presence] {
        let open = try await ledger.occupancy(venue: nil, openSince: nil)
        var names = Set(open.keys)
        for (venue, profile) in directory.profiles where profile.presence.capacity != nil { names.insert(venue) }
        var rows: [Presence] = []
        for venue in names.sorted(by: { $0.rawValue < $1.rawValue }) {
            // A venue no longer served still has its people inside: counted with the default
            // profile, as the evacuation roll (`inside`, the console's) lists them.
            let profile = directory.profile(for: venue) ?? directory.defaults
            // Visits older than max-stay are over even before the server's next pass ends them.
            let inside = open[venue] == nil ? 0 : try await ledger.occupancy(venue: venue, openSince: profile.openSince(at: now))[venue] ?? 0
            rows.append(Presence(venue: venue, inside: inside, capacity: profile.presence.capacity))
        }
        return rows
    }

    /// Reads the counts at `now`, today being everything from `dayStart` on. Times after `now`
    /// (a clock set back) count as today and as the last hour: they are in the log.
    public static func read(from ledger: any VisitLog, at now: WallTime, dayStart: WallTime) async throws(LedgerError) -> LiveCounts {
        let hourAgo = WallTime(milliseconds: now.milliseconds - 3_600_000)
        var today: [VenueID: Int] = [:], lastHour: [VenueID: Int] = [:]
        for tally in try await ledger.tally(CheckInQuery(from: dayStart)) { today[tally.venue, default: 0] += tally.count }
        for tally in try await ledger.tally(CheckInQuery(from: hourAgo)) { lastHour[tally.venue, default: 0] += tally.count }
        let venues = Set(today.keys).union(lastHour.keys).sorted { $0.rawValue < $1.rawValue }.map { venue in
            Venue(venue: venue, today: today[venue] ?? 0, lastHour: lastHour[venue] ?? 0)
        }
        return LiveCounts(at: now, dayStart: dayStart, today: today.values.reduce(0, +), lastHour: lastHour.values.reduce(0, +),
                          venues: venues, total: try await ledger.count(CheckInQuery()))
    }
}
