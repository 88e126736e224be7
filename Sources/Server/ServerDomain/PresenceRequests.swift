import SharedDomain

/// What decides whether a check-in is admitted: the duplicate time, and the venue's capacity
/// with the moment before which an open visit no longer counts as inside (its `max-stay`).
public struct AdmissionRules: Hashable, Sendable {
    /// The same device at the same venue within this many seconds is its earlier check-in.
    public let duplicateSeconds: Int64
    /// Visits open at the venue at most (nil: no limit). Decided in the database, in the
    /// transaction that inserts the check-in, so two servers never admit one too many.
    public let capacity: Int?
    /// Open visits entered before this have ended by `max-stay` (nil: every open visit counts).
    public let openSince: WallTime?

    /// Rules of these values.
    public init(duplicateSeconds: Int64, capacity: Int? = nil, openSince: WallTime? = nil) {
        self.duplicateSeconds = duplicateSeconds
        self.capacity = capacity
        self.openSince = openSince
    }
}

extension AdmissionRules {
    /// Whether a check-in at `time` is the visit its device began at `earlier` at the same
    /// venue: the duplicate time's one rule. The SQL engines decide it where two servers agree,
    /// in the database's claim of the device's key (`LedgerSchema.claimPresence` says the same:
    /// a claim older than the duplicate time is taken over); the in-memory ledger asks here.
    public func isDuplicate(at time: WallTime, of earlier: WallTime) -> Bool {
        time.milliseconds - earlier.milliseconds < duplicateSeconds * 1000
    }

    /// What a venue holding `inside` open visits answers a check-in at `time`: nil when it
    /// admits one more (no capacity, or room); else the device's `earlier` check-in when it is
    /// within the duplicate time (a visitor already inside gets the receipt even when full), or
    /// `.full`. Every ledger decides a capacity here, after counting in its own transaction.
    public func refusal(inside: Int, at time: WallTime, earlier: CheckIn?) -> Admission? {
        guard let capacity, inside >= capacity else { return nil }
        if let earlier, isDuplicate(at: time, of: earlier.time) { return .admitted(.duplicate(of: earlier)) }
        return .full(inside: inside)
    }
}

/// Which open visits a check-out ends.
public enum CheckOutTarget: Hashable, Sendable {
    /// The visit with this id (the id shown, as `find(id:)` takes it).
    case checkIn(Int64)
    /// The latest visit of this device at this venue (an exit kiosk's scan).
    case device(DeviceID, venue: VenueID)
    /// Every open visit at this venue (`checkout --all`).
    case venue(VenueID)
    /// Every open visit at this venue entered before `cutoff` (`close-at`: those entered before
    /// the closing time end at it, those entered after it stay).
    case enteredBefore(VenueID, cutoff: WallTime)
    /// Every open visit at this venue entered at least `maxStaySeconds` before the request's
    /// time: each ends at its entry plus `maxStaySeconds` (`max-stay`), not at the request's time.
    case overstayed(VenueID, maxStaySeconds: Int64)
}

/// A check-out: which visits, at what time, recorded how.
public struct CheckOutRequest: Hashable, Sendable {
    /// Which visits.
    public let target: CheckOutTarget
    /// When they end (for `overstayed`: the moment the rule is applied at).
    public let time: WallTime
    /// How the exits are recorded.
    public let kind: ExitKind

    /// A request of these values.
    public init(_ target: CheckOutTarget, at time: WallTime, kind: ExitKind) {
        self.target = target
        self.time = time
        self.kind = kind
    }
}

/// What a check-out did.
public struct CheckOutReport: Hashable, Sendable {
    /// Exits this call recorded (0 when the one visit was already out, or none was open).
    public let closed: Int
    /// For a one-visit target, that visit with its exit (the new one, or the earlier one when
    /// it was already out); nil when it does not exist, and for the other targets.
    public let visit: CheckIn?

    /// A report of these values.
    public init(closed: Int, visit: CheckIn?) {
        self.closed = closed
        self.visit = visit
    }
}

/// Visits at one venue that meet an interval: entered at or before `until` and not ended
/// before `from`. A visit without an exit counts until `now`, but never longer than
/// `longestStaySeconds` (the venue's `max-stay`: the server ends it then), which also bounds
/// how far before `from` a meeting visit can have begun (the index's range).
public struct MeetingQuery: Hashable, Sendable {
    public let venue: VenueID
    public let from: WallTime
    public let until: WallTime
    public let now: WallTime
    public let longestStaySeconds: Int64

    /// A query of these values.
    public init(venue: VenueID, from: WallTime, until: WallTime, now: WallTime, longestStaySeconds: Int64) {
        self.venue = venue
        self.from = from
        self.until = until
        self.now = now
        self.longestStaySeconds = longestStaySeconds
    }

    /// The moment a visit counts until: its exit, else now or its entry plus the longest stay.
    public func end(of visit: CheckIn) -> WallTime {
        if let exit = visit.exit { return exit.time }
        return WallTime(milliseconds: min(now.milliseconds, visit.time.milliseconds + longestStaySeconds * 1000))
    }

    /// Whether `visit` meets the interval: the rule every ledger follows.
    public func matches(_ visit: CheckIn) -> Bool {
        visit.venue == venue && visit.time <= until && end(of: visit) >= from
            && visit.time.milliseconds >= from.milliseconds - longestStaySeconds * 1000
    }
}
