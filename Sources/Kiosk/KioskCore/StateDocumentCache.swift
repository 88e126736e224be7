import SharedDomain

/// The last `current.json` text serialised and the state it shows: a forced rotation
/// serialises once, for `current.json` and for the control reply.
public struct StateDocumentCache: Sendable {
    private var last: (state: CheckInState, text: String)?

    /// Nothing serialised yet.
    public init() {}

    /// `current.json`'s text for `state`, written by daemon `pid` for `venue` and `period`.
    public mutating func text(for state: CheckInState, venue: VenueID, period: RotationPeriod, pid: Int32) -> String {
        // Keyed by the state alone: another venue or period comes with another code.
        if let last, last.state == state { return last.text }
        let text = String(decoding: StateDocument(state: state, venue: venue, period: period, pid: pid).bytes, as: UTF8.self)
        last = (state, text)
        return text
    }
}
