import SharedDomain

/// One kiosk as the fleet keeps it: its latest report, when it arrived, and its latest steer.
public struct KioskRecord: Sendable, Equatable {
    /// Its latest report.
    public var report: KioskReport
    /// The server's clock when that report arrived.
    public var receivedAt: WallTime
    /// Its latest steer, pending or applied; nil when none was given (or since it was forgotten).
    public var steer: KioskSteerRecord?
    /// What was last told of it (`KioskAnnouncement.stored`), nil before its first look.
    public var announced: String?

    /// A record.
    public init(report: KioskReport, receivedAt: WallTime, steer: KioskSteerRecord? = nil, announced: String? = nil) {
        self.report = report
        self.receivedAt = receivedAt
        self.steer = steer
        self.announced = announced
    }

    /// Which kiosk.
    public var key: KioskKey { KioskKey(venue: report.venue, name: report.kiosk) }
}
