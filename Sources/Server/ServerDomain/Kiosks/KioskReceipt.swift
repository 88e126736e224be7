import SharedDomain

/// A report the server verified (its MAC, its time) and read, as the fleet stores it: the
/// report, its body exactly as signed (what is kept: the latest report, no history), its nonce
/// and signed time (kept until the replay window has passed, so a copy is refused on every
/// server of one database), and the server's clock when it arrived.
public struct KioskReceipt: Sendable, Equatable {
    /// The report, read.
    public let report: KioskReport
    /// Its body's bytes as the kiosk signed them (JSON, at most `KioskReport.maximumBodyBytes`).
    public let body: [UInt8]
    /// Its nonce.
    public let nonce: ReportNonce
    /// Its signature's time, the kiosk's Unix milliseconds.
    public let signedAt: Int64
    /// The server's clock when it arrived.
    public let receivedAt: WallTime

    /// A receipt.
    public init(report: KioskReport, body: [UInt8], nonce: ReportNonce, signedAt: Int64, receivedAt: WallTime) {
        self.report = report
        self.body = body
        self.nonce = nonce
        self.signedAt = signedAt
        self.receivedAt = receivedAt
    }

    /// The kiosk it is from.
    public var key: KioskKey { KioskKey(venue: report.venue, name: report.kiosk) }
}

/// What the fleet did with a receipt.
public enum KioskReceiptOutcome: Sendable, Equatable {
    /// Stored as the kiosk's latest report; the steer waiting for it, if any (after noting the
    /// one the report says it applied).
    case stored(pending: KioskSteer?)
    /// Its nonce was seen within the window (by this server or another on the same database):
    /// nothing was stored.
    case replayed
}
