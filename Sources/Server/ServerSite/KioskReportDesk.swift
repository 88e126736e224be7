import ServerDomain
import SharedDomain

/// Where the kiosks' reports arrive on this server (`POST B/VENUE/kiosk`): the reception (key,
/// MAC, time, body, rate budget, nonce, the ledger), the bell a held report waits on, and how
/// long a report may be held (`?wait=`, at most 25 s: below proxies' idle timeouts).
public struct KioskReportDesk: Sendable {
    /// The longest a report's answer is held for a steer.
    public static let maximumHoldSeconds = 25

    public let reception: KioskReportReception
    public let bell: SteerBell
    /// The clock a hold is counted on (a test's moves by itself).
    public let clock: any Clock<Duration>
    /// Told of each report answered or refused (the metrics), with the refusal's code.
    public let counted: @Sendable (KioskReportRefusal?) -> Void

    /// A desk.
    public init(reception: KioskReportReception, bell: SteerBell, clock: any Clock<Duration> = ContinuousClock(),
                counted: @escaping @Sendable (KioskReportRefusal?) -> Void = { _ in }) {
        self.reception = reception
        self.bell = bell
        self.clock = clock
        self.counted = counted
    }
}
