/// What `VisitLedger.record` did with a check-in: recorded, or the device's earlier one.
public enum RecordOutcome: Hashable, Sendable {
    /// A new check-in, committed.
    case recorded(CheckIn)
    /// The device's earlier check-in at the venue, within the duplicate time: nothing written.
    case duplicate(of: CheckIn)

    /// The check-in the visitor's receipt shows: the new one or the earlier one.
    public var checkIn: CheckIn {
        switch self {
        case .recorded(let checkIn), .duplicate(of: let checkIn): checkIn
        }
    }
}

/// What `VisitLedger.record(_:rules:)` did: admitted (recorded, or a duplicate), or refused as full.
public enum Admission: Hashable, Sendable {
    /// Recorded, or the device's earlier check-in within the duplicate time.
    case admitted(RecordOutcome)
    /// The venue holds its capacity (`inside` open visits): nothing written.
    case full(inside: Int)
}
