import SharedDomain

/// A check-in about to be recorded: who (a device, visitor fields, or staff), where, when, how.
public struct NewCheckIn: Hashable, Sendable {
    /// The venue checked in to.
    public let venue: VenueID
    /// When the server accepted it (its own clock).
    public let time: WallTime
    /// Scanned code, typed safe number, or staff.
    public let method: CheckInMethod
    /// How many windows old the code was when it arrived: 0 the current one, 1 the previous
    /// (within the skew), −1 a kiosk slightly ahead; nil for staff check-ins.
    public let windowAge: Int?
    /// The device; nil for staff check-ins, which are never duplicates.
    public let device: DeviceID?
    /// The visitor log fields, when the venue asks for them (or staff typed a name).
    public let visitor: Visitor?
    /// The operator who made a staff check-in (the audit trail); nil otherwise.
    public let operatorName: String?

    /// A check-in with these fields.
    public init(venue: VenueID, time: WallTime, method: CheckInMethod, windowAge: Int?, device: DeviceID?,
                visitor: Visitor? = nil, operatorName: String? = nil) {
        self.venue = venue
        self.time = time
        self.method = method
        self.windowAge = windowAge
        self.device = device
        self.visitor = visitor
        self.operatorName = operatorName
    }
}

/// A check-in the ledger has committed, with the id it gave it.
public struct CheckIn: Hashable, Sendable, Identifiable {
    /// The ledger's id: positive, increasing in the order of recording.
    public let id: Int64
    /// What was recorded.
    public let entry: NewCheckIn
    /// The visit's end, once known (issue 32): nil while the visitor is inside.
    public let exit: VisitExit?

    /// The recorded check-in `id`, ended by `exit` (nil: still open).
    public init(id: Int64, entry: NewCheckIn, exit: VisitExit? = nil) {
        self.id = id
        self.entry = entry
        self.exit = exit
    }

    /// The venue checked in to.
    public var venue: VenueID { entry.venue }
    /// When it was recorded.
    public var time: WallTime { entry.time }
    /// How it came about.
    public var method: CheckInMethod { entry.method }
    /// The device, if any.
    public var device: DeviceID? { entry.device }
}

extension CheckIn {
    /// The same visit ended by `exit`.
    public func ended(_ exit: VisitExit) -> CheckIn {
        CheckIn(id: id, entry: entry, exit: exit)
    }

    /// How long the visit lasted, in milliseconds, until its exit (or `now` while open).
    public func stayMilliseconds(now: WallTime) -> Int64 {
        max(0, (exit?.time ?? now).milliseconds - time.milliseconds)
    }
}
