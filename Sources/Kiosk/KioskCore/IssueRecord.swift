import SharedDomain
/// What the daemon has issued, kept so that no `(window, seq)` is ever issued twice, across
/// restarts too (docs/TOKEN.md, Windows): the newest `(window, seq)` per venue and period, and
/// the clock's high-water mark, the latest time at which a code was issued.
///
/// Saved with the operator settings before each code is published; a record that cannot be read
/// back makes the daemon wait for a window that starts after the time it was lost (`floor`).
public struct IssueRecord: Equatable, Sendable {
    /// The newest code issued for one venue and period.
    public struct Entry: Equatable, Sendable {
        /// The venue.
        public var venue: VenueID
        /// The rotation period in seconds (windows of different periods are different units).
        public var periodSeconds: Int
        /// The newest window issued.
        public var window: Int64
        /// The newest sequence number issued in that window.
        public var sequence: Int

        /// Creates an entry.
        public init(venue: VenueID, periodSeconds: Int, window: Int64, sequence: Int) {
            self.venue = venue
            self.periodSeconds = periodSeconds
            self.window = window
            self.sequence = sequence
        }
    }

    /// How many venue-and-period entries are kept; older ones are forgotten, raising `floor`.
    public static let capacity = 64

    /// The entries, the most recently issued last.
    public private(set) var entries: [Entry]
    /// The latest Unix second at which a code was issued (nil: none yet).
    public private(set) var highWater: Int64?
    /// Codes of a venue and period with no entry may only be issued for windows that start after
    /// this Unix second: entries were forgotten (or the record was lost) at that time.
    public private(set) var floor: Int64?

    /// Creates a record (empty: nothing issued yet).
    public init(entries: [Entry] = [], highWater: Int64? = nil, floor: Int64? = nil) {
        self.entries = entries
        self.highWater = highWater
        self.floor = floor
    }

    /// A record that was lost at `now` (the file could not be read): nothing issued is known,
    /// so nothing may be issued before the next window of any period.
    public static func lost(at now: Int64) -> IssueRecord {
        IssueRecord(highWater: now, floor: now)
    }

    /// The newest entry for `venue` and `period`, if any.
    public func last(venue: VenueID, periodSeconds: Int) -> Entry? {
        entries.last { $0.venue == venue && $0.periodSeconds == periodSeconds }
    }

    /// The first window a venue and period with no entry may use, under `period` (nil: any).
    public func firstFreeWindow(period: RotationPeriod) -> Int64? {
        floor.map { period.window(at: $0) + 1 }
    }

    /// Records that `(window, sequence)` was issued for `venue` and `period` at Unix second `now`.
    public mutating func record(venue: VenueID, periodSeconds: Int, window: Int64, sequence: Int, at now: Int64) {
        entries.removeAll { $0.venue == venue && $0.periodSeconds == periodSeconds }
        entries.append(Entry(venue: venue, periodSeconds: periodSeconds, window: window, sequence: sequence))
        highWater = max(highWater ?? now, now)
        if entries.count > Self.capacity {
            entries.removeFirst(entries.count - Self.capacity)
            floor = highWater  // what the forgotten entries issued lies at or before this
        }
    }

    /// Whether `code`'s `(window, sequence)` is recorded: at or before its venue's newest.
    public func covers(_ code: CheckInCode, periodSeconds: Int) -> Bool {
        guard let last = last(venue: code.venue, periodSeconds: periodSeconds) else { return false }
        return (code.window, code.sequence) <= (last.window, last.sequence)
    }
}

/// What the daemon keeps in its state directory: the operator settings and the issue record.
public struct SavedState: Equatable, Sendable {
    /// Shake and refresh modes.
    public var settings: OperatorSettings
    /// The codes issued so far.
    public var issued: IssueRecord

    /// Creates a saved state.
    public init(settings: OperatorSettings = OperatorSettings(), issued: IssueRecord = IssueRecord()) {
        self.settings = settings
        self.issued = issued
    }
}
