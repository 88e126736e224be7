/// The moments the format supports: Unix seconds within ±10^15 (about ±31.7 million years).
///
/// Inside this range nothing derived from a moment overflows `Int64`: the window, its start and
/// end (`window · period` and `+ period`, at most 10^15 + 3600 · 62 in size), seconds left, and
/// the skew's reach (±60 windows). A token may still claim any `Int64` window; a verifier only
/// ever compares it with the current window, by subtraction that reports overflow.
public enum CheckInTime {
    /// The supported Unix times, in seconds.
    public static let supported: ClosedRange<Int64> = -1_000_000_000_000_000...1_000_000_000_000_000
    /// The largest accepted skew, in windows.
    public static let maximumSkew = 60
}
