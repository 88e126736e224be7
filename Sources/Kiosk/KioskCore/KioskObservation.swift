import SharedDomain

/// What the reporter saw of its kiosk at one moment: the daemon's state as `status` judges it,
/// the outputs' ages and the machine's uptime. A report is made of the newest one.
public struct KioskObservation: Equatable, Sendable {
    /// `status`'s verdict.
    public var status: KioskReport.Status
    /// `status`'s one line about it, in English.
    public var summary: String
    /// The daemon's state, when one could be read.
    public var daemon: KioskReport.Daemon?
    /// The outputs' ages.
    public var outputAgeSeconds: KioskReport.OutputAges
    /// Seconds since the machine booted.
    public var uptimeSeconds: Int64?

    /// An observation.
    public init(status: KioskReport.Status, summary: String, daemon: KioskReport.Daemon?,
                outputAgeSeconds: KioskReport.OutputAges = .init(), uptimeSeconds: Int64? = nil) {
        self.status = status
        self.summary = summary
        self.daemon = daemon
        self.outputAgeSeconds = outputAgeSeconds
        self.uptimeSeconds = uptimeSeconds
    }

    /// What a report is sent at once for when it changes: the verdict, what is on display
    /// (not which code: codes rotate every period), health, modes and who set them, the clock's
    /// synchronisation. Ages, uptime, the window and the clock's error estimate ride along with
    /// the next report.
    public var significant: Significant {
        Significant(status: status, state: daemon?.state, health: daemon?.health, reason: daemon?.reason, shake: daemon?.shake,
                    refresh: daemon?.refresh, modeChange: daemon?.modeChange, clockSynchronized: daemon?.clockSynchronized)
    }

    /// The part of an observation whose change is reported at once.
    public struct Significant: Equatable, Sendable {
        var status: KioskReport.Status
        var state: KioskReport.State?
        var health: String?
        var reason: String?
        var shake: ShakeMode?
        var refresh: RefreshMode?
        var modeChange: ModeChange?
        var clockSynchronized: Bool?
    }
}
