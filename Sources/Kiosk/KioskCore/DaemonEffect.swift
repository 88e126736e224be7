import SharedDomain

/// What the core asks the shell to do, in order. The shell performs each and reports results
/// that matter back as events (`.outputsWritten`, `.settingsSaved`, …).
public enum DaemonEffect: Equatable, Sendable {
    /// Render the frame's files and put them in place together (all or none, in list order);
    /// answer with `.outputsWritten` or `.outputsFailed`.
    case writeOutputs(OutputFrame)
    /// Answer the control request being handled with this line.
    case reply(String)
    /// Send this to systemd (sd_notify lines joined by newlines).
    case notify(String)
    /// Write one log line.
    case log(LogLevel, String)
    /// Arm the wall-clock timer to fire once at a time (replacing any earlier time).
    case armTimer(at: WallTime)
    /// Close the control socket (its file is gone; an open socket would keep a removed output
    /// directory from being released).
    case closeSocket
    /// Bind the control socket again (creating its directory); answer with `.socketRebound` or
    /// `.socketRebindFailed`.
    case rebindSocket
    /// Save the operator settings and the issue record, synced; answer with `.settingsSaved`
    /// or `.settingsNotSaved`.
    case saveSettings(SavedState)
    /// Read the config file and the secret again; answer with `.reloaded` or `.reloadFailed`.
    case reloadConfiguration
    /// Close the socket and leave the loop: exit 0 when stopped as asked, 70 when the
    /// timer failed.
    case exit(DaemonExit)
}

/// Counters the daemon keeps for monitoring (metrics.prom renders them).
public struct DaemonCounters: Equatable, Sendable {
    /// Codes issued, by cause.
    public var rotations: [RotationCause: Int] = [:]
    /// Rotations whose outputs could not be written.
    public var writeFailures = 0
    /// Saves of the settings and issue record that failed.
    public var saveFailures = 0
    /// Control requests answered (including malformed ones).
    public var requests = 0
    /// Peers the control socket turned away.
    public var refusals = 0
    /// Shakes ignored because shake mode is off.
    public var ignoredShakes = 0
    /// Shakes coalesced into the one before (within `ShakeLimit.intervalMilliseconds`).
    public var coalescedShakes = 0
    /// When the last code was issued.
    public var lastRotation: WallTime?

    /// All zero.
    public init() {}
}

/// Everything needed to render the outputs of one state: what the core hands to the writer.
public struct OutputFrame: Equatable, Sendable {
    /// The state to show (its health is what the files will say).
    public var state: CheckInState
    /// The files to write, in order (`OutputFile.all`, or only `.json` for a health update).
    public var files: [OutputFile]
    /// How to draw the QR.
    public var look: OutputLook
    /// `current.json`'s text (serialised once; the control reply reuses it).
    public var document: String
    /// The counters at this moment.
    public var counters: DaemonCounters
    /// The venue served (metrics' label).
    public var venue: String
    /// The rotation period in seconds.
    public var period: Int
    /// The daemon's version (metrics' build info).
    public var version: String

    /// Creates a frame.
    public init(state: CheckInState, files: [OutputFile], look: OutputLook, document: String, counters: DaemonCounters,
                venue: String = "DEMO", period: Int = 15, version: String = "unknown") {
        self.state = state
        self.venue = venue
        self.period = period
        self.version = version
        self.files = files
        self.look = look
        self.document = document
        self.counters = counters
    }
}
