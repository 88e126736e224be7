import SharedDomain

/// What makes the codes: the one home of the venue and the period. Two equal sources issue the
/// same codes; a reload that changes it switches issuers.
public struct CodeSource: Equatable, Sendable {
    /// The venue codes are issued for.
    public var venue: VenueID
    /// The rotation period.
    public var period: RotationPeriod
    /// The URL prefix of every code.
    public var baseURL: String
    /// The master secret or the venue's own key (re-read on reload).
    public var keys: SigningKeySource

    /// Creates a code source.
    public init(venue: VenueID, period: RotationPeriod, baseURL: String, keys: SigningKeySource) {
        self.venue = venue
        self.period = period
        self.baseURL = baseURL
        self.keys = keys
    }
}

/// Port: makes the issuer for a code source (the Data layer's HMAC signer; tests' fakes).
public protocol CodeIssuerMaking: Sendable {
    /// The issuer that signs `source`'s codes.
    func issuer(for source: CodeSource) -> any CheckInCodeIssuing
}

/// A setting that takes effect only at a restart (it needs new sockets or directories).
public struct RestartOnlySetting: Equatable, Sendable {
    /// The setting's name, as in the config file (`output-dir`).
    public var name: String
    /// Its value, as text to compare.
    public var value: String

    /// Creates one.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The configuration the core runs on: built by the shell from the config layers and the
/// secret, at start and again at each reload.
public struct DaemonSetup: Equatable, Sendable {
    /// What makes the codes.
    public var codes: CodeSource
    /// How the QR is drawn.
    public var look: OutputLook
    /// Where outputs go (for log lines; the shell owns the directory).
    public var outputDirectory: String
    /// The control socket's path (for log lines; the shell owns the socket).
    public var socketPath: String
    /// Settings a reload must not change, in the order they are reported.
    public var restartOnly: [RestartOnlySetting]
    /// `require-clock-sync`: show no code until the kernel says the clock is synchronised.
    public var requireClockSync: Bool

    /// Creates a setup.
    public init(codes: CodeSource, look: OutputLook, outputDirectory: String, socketPath: String,
                restartOnly: [RestartOnlySetting], requireClockSync: Bool = false) {
        self.codes = codes
        self.requireClockSync = requireClockSync
        self.look = look
        self.outputDirectory = outputDirectory
        self.socketPath = socketPath
        self.restartOnly = restartOnly
    }
}

/// Facts about the process the core runs in, fixed for its life.
public struct DaemonHost: Equatable, Sendable {
    /// The daemon's process id (written into current.json).
    public var pid: Int32
    /// Whether systemd listens for notifications (`$NOTIFY_SOCKET`).
    public var notifies: Bool
    /// The watchdog interval systemd asked for, in milliseconds.
    public var watchdogMilliseconds: Int64?
    /// The running qrcheckin's version (metrics' build info).
    public var version: String

    /// Creates host facts.
    public init(pid: Int32, notifies: Bool = false, watchdogMilliseconds: Int64? = nil, version: String = "unknown") {
        self.pid = pid
        self.version = version
        self.notifies = notifies
        self.watchdogMilliseconds = watchdogMilliseconds
    }
}

/// The operator settings and issue record saved by an earlier run, as the shell found them.
public enum SavedSettings: Equatable, Sendable {
    /// None saved yet: the embedded defaults, nothing issued.
    case none
    /// Read back intact.
    case loaded(SavedState)
    /// The file is damaged; the reason names it.
    case unreadable(reason: String)
}
