/// How long one code lives. Windows are aligned to the Unix epoch (window = ⌊t / period⌋), so
/// every kiosk of a venue shows the same countdown without talking to each other.
public struct RotationPeriod: Sendable, Equatable {
    /// The window length in seconds, 1...3600.
    public let seconds: Int

    /// The allowed window lengths.
    public static let allowedSeconds: ClosedRange<Int> = 1...3600

    /// Fifteen seconds: short enough that a forwarded screenshot goes stale before it is useful.
    public static let standard = RotationPeriod(unchecked: 15)

    /// Validates `seconds` as a period.
    public init(seconds: Int) throws(CheckInCodeError) {
        guard Self.allowedSeconds.contains(seconds) else { throw .invalidPeriod(seconds) }
        self.seconds = seconds
    }

    private init(unchecked seconds: Int) {
        self.seconds = seconds
    }

    /// The window containing `unixTime`: floor division, so −1 s is in window −1, not 0.
    public func window(at unixTime: Int64) -> Int64 {
        let length = Int64(seconds)
        let quotient = unixTime / length
        return unixTime % length < 0 ? quotient - 1 : quotient
    }

    /// The first second of `window` (Unix time); saturates at the ends of Int64 instead of trapping,
    /// since a window can come from a signed token from anywhere in time.
    public func start(ofWindow window: Int64) -> Int64 {
        let (product, overflow) = window.multipliedReportingOverflow(by: Int64(seconds))
        return overflow ? (window < 0 ? .min : .max) : product
    }

    /// The first second after `window` (Unix time): the moment its code expires. Saturates too.
    public func end(ofWindow window: Int64) -> Int64 {
        let (sum, overflow) = start(ofWindow: window).addingReportingOverflow(Int64(seconds))
        return overflow ? .max : sum
    }
}
