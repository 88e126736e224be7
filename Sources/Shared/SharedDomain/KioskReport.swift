/// One kiosk's signed report of its state (docs/TOKEN.md, "Kiosk reports"): what the reporter
/// sends every interval and at once after a change, and what the check-in server stores as the
/// kiosk's latest. No visitor data: the venue, the kiosk, its daemon's state and its clock.
///
/// The names are `current.json`'s and `status --json`'s for the same things (docs/STATE.md):
/// `*At` are Unix seconds; `wallClock` is Unix milliseconds, the kiosk's clock as it signed,
/// so the server can measure the kiosk's clock against its own.
public struct KioskReport: Equatable, Sendable {
    /// The most bytes a report's body may have; a server refuses more before parsing it.
    public static let maximumBodyBytes = 4096
    /// The longest `reason` and `summary` sent; longer text is cut (a report stays in bounds).
    public static let maximumTextLength = 240

    /// What `status` concludes about the daemon (its exit status's words).
    public enum Status: String, CaseIterable, Sendable {
        case running, degraded, waiting
        case notRunning = "not-running"
    }

    /// What `current.json` says is on display (its `state`).
    public enum State: String, CaseIterable, Sendable {
        case running, paused, waiting, stopped
    }

    /// How old each output file is, in seconds (nil: missing or unreadable).
    public struct OutputAges: Equatable, Sendable {
        public var png: Int64?
        public var json: Int64?
        public var txt: Int64?

        /// The ages.
        public init(png: Int64? = nil, json: Int64? = nil, txt: Int64? = nil) {
            self.png = png
            self.json = json
            self.txt = txt
        }
    }

    /// The daemon's code and modes as its `current.json` (or its control socket) says; absent
    /// when there is no readable state at all (`status` not-running with no document).
    public struct Daemon: Equatable, Sendable {
        public var state: State
        /// The window and sequence of the code on screen (nil unless running).
        public var window: Int64?
        public var seq: Int64?
        /// Unix seconds the code on screen stops being shown.
        public var expiresAt: Int64?
        /// The rotation period in seconds.
        public var period: Int64
        /// `ok` or `degraded`, and why.
        public var health: String
        public var reason: String?
        public var shake: ShakeMode
        public var refresh: RefreshMode
        /// Who set a mode last, from where and when.
        public var modeChange: ModeChange?
        /// The clock's synchronisation as the daemon read it (nil: unknown).
        public var clockSynchronized: Bool?
        /// The kernel's maximum error estimate, whole seconds (nil: unknown).
        public var clockMaxErrorSeconds: Int64?

        /// The daemon's state.
        public init(state: State, window: Int64? = nil, seq: Int64? = nil, expiresAt: Int64? = nil, period: Int64,
                    health: String, reason: String? = nil, shake: ShakeMode, refresh: RefreshMode, modeChange: ModeChange? = nil,
                    clockSynchronized: Bool? = nil, clockMaxErrorSeconds: Int64? = nil) {
            self.state = state
            self.window = window
            self.seq = seq
            self.expiresAt = expiresAt
            self.period = period
            self.health = health
            self.reason = reason
            self.shake = shake
            self.refresh = refresh
            self.modeChange = modeChange
            self.clockSynchronized = clockSynchronized
            self.clockMaxErrorSeconds = clockMaxErrorSeconds
        }
    }

    /// The last console steer this kiosk applied, and what became of it.
    public struct Applied: Equatable, Sendable {
        /// The steer's id (the server's).
        public var steer: Int64
        /// Unix seconds it was applied.
        public var at: Int64
        /// `ok`, or the daemon's refusal code (`paused`, `not-saved`, …; `unreachable` when the
        /// control socket did not answer).
        public var outcome: String

        /// An applied steer.
        public init(steer: Int64, at: Int64, outcome: String) {
            self.steer = steer
            self.at = at
            self.outcome = outcome
        }
    }

    public var venue: VenueID
    public var kiosk: KioskName
    /// The qrcheckin version the kiosk runs.
    public var version: String
    /// Seconds between reports (`report-interval`): the server calls a kiosk late after two.
    public var reportInterval: Int64
    /// The kiosk's clock when it signed, Unix milliseconds (the signature's `t`).
    public var wallClock: Int64
    /// The previous exchange's round trip, milliseconds: the bound on a clock-skew reading.
    public var lastRoundTripMs: Int64?
    /// Seconds since the kiosk's machine booted.
    public var uptimeSeconds: Int64?
    public var status: Status
    /// `status`'s one line about the verdict, in English.
    public var summary: String
    /// The daemon's state, when one could be read.
    public var daemon: Daemon?
    public var outputAgeSeconds: OutputAges
    public var applied: Applied?

    /// A report.
    public init(venue: VenueID, kiosk: KioskName, version: String, reportInterval: Int64, wallClock: Int64,
                lastRoundTripMs: Int64? = nil, uptimeSeconds: Int64? = nil, status: Status, summary: String, daemon: Daemon?,
                outputAgeSeconds: OutputAges = OutputAges(), applied: Applied? = nil) {
        self.venue = venue
        self.kiosk = kiosk
        self.version = version
        self.reportInterval = reportInterval
        self.wallClock = wallClock
        self.lastRoundTripMs = lastRoundTripMs
        self.uptimeSeconds = uptimeSeconds
        self.status = status
        self.summary = summary
        self.daemon = daemon
        self.outputAgeSeconds = outputAgeSeconds
        self.applied = applied
    }
}
