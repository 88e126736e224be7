import SharedDomain
import SharedJSON

/// Use case: a kiosk's signed report arrives (`POST BASE/VENUE/kiosk`). `verify` decides, in
/// this order and before anything is stored: the body's size, the signature header, the
/// venue's report key and the MAC (constant time), the signed time within 5 minutes of the
/// server's clock, the body read as a report of this venue signed at that time, and the
/// kiosk's rate budget. `store` then keeps it as the kiosk's latest report unless its nonce was
/// seen (by any server of the ledger). A refused report is recorded nowhere; the answer to an
/// accepted one is signed over its nonce (`answer`).
public struct KioskReportReception: Sendable {
    /// How far a report's time may be from the server's clock, and how long its nonce is
    /// remembered: 5 minutes.
    public static let toleranceMilliseconds = ReportReplayWindow.defaultToleranceMilliseconds
    /// A kiosk's reports: 30 at once, then two a second. A kiosk sends one an interval (30 s by
    /// default, at least 1 s) and one at once after each change or steer; this refuses only a
    /// reporter gone wrong, or someone replaying its reports from elsewhere.
    public static let budget = RateBudget(burst: 30, intervalMilliseconds: 500)

    /// A report that passed `verify`: what `store` keeps and `answer` signs for.
    public struct Verified: Sendable {
        public let receipt: KioskReceipt
        /// The key that verified it: the answer is signed with it.
        public let signer: ReportAuthenticator

        /// The kiosk.
        public var key: KioskKey { receipt.key }
    }

    let fleet: any KioskFleet
    let keyring: ReportKeyring
    let venues: VenueDirectory
    let clock: any WallClock
    let budgets: BoundedRateTable

    /// Reception into `fleet`, with the keys of `keyring` for the venues `venues` serves, at
    /// `clock`'s times; `budgets` keeps each kiosk's rate budget (`budget`).
    public init(fleet: any KioskFleet, keyring: ReportKeyring, venues: VenueDirectory, clock: any WallClock,
                budgets: BoundedRateTable = BoundedRateTable(budget: KioskReportReception.budget, capacity: 32_768)) {
        self.fleet = fleet
        self.keyring = keyring
        self.venues = venues
        self.clock = clock
        self.budgets = budgets
    }

    /// Checks a report for `venue` (the path's) signed by `header` over `body`, from the client
    /// network `client` (the rate budget is a kiosk's from one network, so copies sent from
    /// elsewhere spend their own). `bodyTooLarge`: the adapter stopped reading it.
    public func verify(venue: VenueID, header: String?, body: [UInt8], bodyTooLarge: Bool = false,
                       client: String) throws(KioskReportRefusal) -> Verified {
        guard !bodyTooLarge, body.count <= KioskReport.maximumBodyBytes else { throw .tooLarge }
        guard let header else { throw .unsigned }
        let signature: ReportSignature
        do throws(ReportFormatError) {
            signature = try ReportSignature(headerValue: header)
        } catch {
            throw .malformedSignature(error.description)
        }
        guard venues.profile(for: venue) != nil else { throw .unknownVenue }
        let candidates = keyring.authenticators(for: venue)
        guard !candidates.isEmpty else { throw .unknownVenue }
        // Every key is tried (a rotation's old and new), each in constant time.
        guard let signer = candidates.first(where: { $0.isValid(signature, body: body) }) else { throw .badSignature }
        let now = clock.now()
        let offset = signature.time.subtractingReportingOverflow(now.milliseconds)
        guard !offset.overflow, abs(offset.partialValue) <= Self.toleranceMilliseconds else {
            throw .stale(offsetMilliseconds: offset.overflow ? Int64.max : offset.partialValue)
        }
        // Signed by the venue's key holder: now its body may be read.
        let report: KioskReport
        do throws(ReportFormatError) {
            report = try KioskReport(body: body)
        } catch {
            throw .malformed(error.description)
        }
        guard report.venue == venue else { throw .malformed("the body's venue \(report.venue) is not the path's \(venue)") }
        guard report.wallClock == signature.time else { throw .malformed("the body's wallClock is not the signature's t") }
        let budgetKey = "\(venue)/\(report.kiosk)@\(client)"
        guard budgets.admit(budgetKey, now: now.milliseconds) else {
            throw .tooMany(retryAfterSeconds: max(1, (budgets.wait(budgetKey, now: now.milliseconds) + 999) / 1000))
        }
        return Verified(receipt: KioskReceipt(report: report, body: body, nonce: signature.nonce, signedAt: signature.time, receivedAt: now),
                        signer: signer)
    }

    /// Keeps a verified report as its kiosk's latest; returns the steer waiting for it. Throws
    /// `.replayed` (nothing stored) or `.unavailable`.
    public func store(_ verified: Verified) async throws(KioskReportRefusal) -> KioskSteer? {
        let outcome: KioskReceiptOutcome
        do throws(LedgerError) {
            outcome = try await fleet.receive(verified.receipt, replayWindowMilliseconds: Self.toleranceMilliseconds)
        } catch {
            throw .unavailable(error)
        }
        switch outcome {
        case .replayed: throw .replayed
        case .stored(let pending): return pending
        }
    }

    /// The steer waiting for `key` now (after a held report was woken), nil when none is, or
    /// when the ledger cannot say (the answer then carries none; the next report asks again).
    public func pendingSteer(for key: KioskKey) async -> KioskSteer? {
        try? await fleet.pendingSteer(for: key)
    }

    /// The signed answer to `verified`: the server's clock and `steer`; the body's bytes and
    /// the `Qrcheckin-Answer` header's value, bound to the report's nonce.
    public func answer(_ verified: Verified, steer: KioskSteer?) -> (body: [UInt8], signature: String) {
        let body = ReportAnswer(serverTime: clock.now().milliseconds, steer: steer).bodyBytes
        return (body, verified.signer.signAnswer(body: body, nonce: verified.receipt.nonce).headerValue)
    }
}
