/// What the kernel says about the wall clock's synchronisation (NTP discipline): whether the
/// time can be trusted for issuing codes, and its estimated maximum error.
///
/// A rotating code is only as right as the clock: a kiosk that booted with a stale time shows
/// codes every verifier rejects as expired. An unsynchronised clock is a warning, never a
/// degraded health; with `require-clock-sync` no code is shown until it is synchronised.
public struct ClockSync: Equatable, Sendable {
    /// True when synchronised, false when the kernel says unsynchronised, nil when nobody can
    /// tell (the read is not allowed here and no other source answered).
    public var synchronized: Bool?
    /// The kernel's estimated maximum error in microseconds (nil when unknown).
    public var maxErrorMicroseconds: Int64?

    /// Creates a reading.
    public init(synchronized: Bool?, maxErrorMicroseconds: Int64? = nil) {
        self.synchronized = synchronized
        self.maxErrorMicroseconds = maxErrorMicroseconds
    }

    /// Nothing known.
    public static let unknown = ClockSync(synchronized: nil)

    /// Whether the clock is known to be unsynchronised: the warning case.
    public var isUnsynchronized: Bool { synchronized == false }

    /// The maximum error in whole seconds, rounded up (nil when unknown).
    public var maxErrorSeconds: Int64? {
        maxErrorMicroseconds.map { ($0 + 999_999) / 1_000_000 }
    }
}

/// Port: where the clock's synchronisation state comes from (the kernel's `adjtimex` in the
/// Data layer; a fake in tests).
public protocol ClockSyncSource: Sendable {
    /// The state now. Never fails: what cannot be read is `.unknown`.
    func read() -> ClockSync
}

/// The source where nothing can be known: every reading is `.unknown`.
public struct UnknownClockSync: ClockSyncSource {
    /// Creates it.
    public init() {}
    public func read() -> ClockSync { .unknown }
}
