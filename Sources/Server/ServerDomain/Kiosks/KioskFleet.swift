import SharedDomain

/// Port: the kiosks' latest reports and the operators' steers, in the ledger, so every server
/// on one database sees the same fleet and refuses the same replayed report. SQLite and
/// PostgreSQL implement it (written once in `SQLLedger`), and the in-memory ledger; all pass
/// `KioskFleetContract`. Steers and forgetting a kiosk are operator actions, so they are
/// written inside an audited transaction (`LedgerTransaction.steerKiosk`, `.forgetKiosk`),
/// never through this port.
///
/// A report carries no visitor data (docs/PRIVACY.md): what is kept is one row per kiosk (its
/// latest report, not a history), its latest steer, and the nonces of its reports until the
/// replay window has passed.
public protocol KioskFleet: Sendable {
    /// Stores `receipt` as its kiosk's latest report, unless its nonce was seen for that kiosk
    /// with a signed time within `replayWindowMilliseconds` of the receipt (then nothing is
    /// stored: `.replayed`). In the same transaction: the kiosk's nonces older than the window
    /// are forgotten, the steer the report says it applied is marked applied, and the steer
    /// still pending is returned.
    func receive(_ receipt: KioskReceipt, replayWindowMilliseconds: Int64) async throws(LedgerError) -> KioskReceiptOutcome

    /// Every kiosk (of `venue`, or of every venue), ordered by venue and name.
    func kiosks(venue: VenueID?) async throws(LedgerError) -> [KioskRecord]

    /// The kiosk `key`, if it has reported (and was not forgotten since).
    func kiosk(_ key: KioskKey) async throws(LedgerError) -> KioskRecord?

    /// The steer waiting for `key`, if any (what a held report's answer carries once woken).
    func pendingSteer(for key: KioskKey) async throws(LedgerError) -> KioskSteer?

    /// Steers given after the one of id `after`, oldest first, at most `limit`: how a server
    /// learns of a steer another server or a command gave (`SteerBeacon`). Only the kiosks and
    /// ids: the steers themselves are read by their kiosks' answers.
    func steers(after: Int64, limit: Int) async throws(LedgerError) -> [KioskSteerNotice]

    /// The id of the newest steer given (0 when none ever was): where `SteerBeacon` starts.
    func latestSteerID() async throws(LedgerError) -> Int64

    /// Keeps each of `announcements` as what was last told of its kiosk, unless that is what
    /// was last told (then nothing is written for it), all in one transaction; with each that
    /// is news, a `kiosk` event for each webhook endpoint that hears the kiosk's venue (the
    /// engines that keep webhooks). Returns the news. A kiosk not (or no longer) known is no
    /// news. Two servers announcing one change at once: one of them writes it.
    func announce(_ announcements: [KioskAnnouncement], at time: WallTime) async throws(LedgerError) -> [KioskAnnouncement]
}

/// A steer given, as `KioskFleet.steers(after:)` lists it.
public struct KioskSteerNotice: Sendable, Hashable {
    /// The steer's id (increasing: never reused, also after a kiosk is forgotten).
    public let id: Int64
    /// For which kiosk.
    public let key: KioskKey

    /// A notice.
    public init(id: Int64, key: KioskKey) {
        self.id = id
        self.key = key
    }
}
