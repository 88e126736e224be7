/// A kiosk's clock against the server's, read from one report: its stated time (the body's
/// `wallClock`) minus the server's clock when the report arrived. The report spent part of a
/// round trip on the way, so the reading is off by at most that round trip (the kiosk's
/// previous exchange: `lastRoundTripMs`), which is its bound.
public struct ClockReading: Sendable, Equatable {
    /// Kiosk minus server, milliseconds: positive when the kiosk is ahead (fast).
    public let skewMilliseconds: Int64
    /// How far off the reading may be, milliseconds (nil: the kiosk reported no round trip yet).
    public let boundMilliseconds: Int64?

    /// A reading.
    public init(skewMilliseconds: Int64, boundMilliseconds: Int64?) {
        self.skewMilliseconds = skewMilliseconds
        self.boundMilliseconds = boundMilliseconds
    }

    /// The skew in whole seconds, rounded half away from zero (`clockSkewSeconds`).
    public var seconds: Int64 {
        let half: Int64 = skewMilliseconds >= 0 ? 500 : -500
        return (skewMilliseconds + half) / 1000
    }
}
