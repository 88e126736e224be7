import SharedDomain

/// Use case: a scan becomes a check-in. Verify the code at the server's clock (the venue's
/// period and skew, every key source in order), decide duplicates and record in one ledger
/// step, and only then answer with a receipt. Refusals are answered and kept in the refusal log.
public struct CheckInUseCase: Sendable {
    /// The venues served and their settings.
    public let venues: VenueDirectory
    /// Master secrets and venue keys, tried in order (several during a rotation).
    public let keys: [SigningKeySource]
    /// HMAC-SHA256.
    public let authenticator: any MessageAuthenticator
    /// The visitor log.
    public let ledger: any CheckInLedger
    /// The server's clock.
    public let clock: any WallClock
    /// The budgets new devices are counted against.
    public let newDevices: NewDeviceBudget
    /// The venues' keys, derived once.
    private let venueKeys: VenueKeyCache

    /// A use case over these parts; `keys` must not be empty.
    public init(venues: VenueDirectory, keys: [SigningKeySource], authenticator: any MessageAuthenticator,
                ledger: any CheckInLedger, clock: any WallClock, newDevices: NewDeviceBudget = NewDeviceBudget()) {
        precondition(!keys.isEmpty, "a check-in server needs a key")
        self.venues = venues
        self.keys = keys
        self.authenticator = authenticator
        self.ledger = ledger
        self.clock = clock
        self.newDevices = newDevices
        venueKeys = VenueKeyCache(sources: keys, authenticator: authenticator)
    }

    /// Checks `scan` in, answering through `completion` after the ledger's commit (or at once,
    /// for refusals and forms); `completion` runs exactly once, on any thread. `verifiedAt` is
    /// the moment to verify the code at, when the adapter vouches that it verified the same code
    /// then (a visitor form filled in after the scan); nil verifies at the clock's now. The
    /// check-in's time is always now.
    public func checkIn(_ scan: Scan, verifiedAt: WallTime? = nil, completion: @escaping @Sendable (CheckInOutcome) -> Void) {
        switch decide(scan, verifiedAt: verifiedAt) {
        case .answer(let outcome):
            completion(outcome)
        case .record(let entry, let duplicateSeconds):
            ledger.record(entry, duplicateSeconds: duplicateSeconds) { result in completion(Self.outcome(result)) }
        }
    }

    /// What the use case decided before the ledger: an answer, or a check-in to record.
    private enum Decision {
        case answer(CheckInOutcome)
        case record(NewCheckIn, duplicateSeconds: Int64)
    }

    private static func outcome(_ result: Result<RecordOutcome, LedgerError>) -> CheckInOutcome {
        switch result {
        case .success(.recorded(let checkIn)): .checkedIn(checkIn)
        case .success(.duplicate(of: let earlier)): .alreadyCheckedIn(earlier)
        case .failure(let error): .unavailable(error)
        }
    }

    private func decide(_ scan: Scan, verifiedAt: WallTime?) -> Decision {
        let now = clock.now()
        let method = scan.code.method
        guard let venue = try? VenueID(scan.venue) else { return .answer(refuse(.malformed, venue: nil, method, now)) }
        guard let profile = venues.profile(for: venue) else { return .answer(refuse(.unknownVenue, venue: venue, method, now)) }
        let verifier = CheckInCodeVerifier(keys: venueKeys.keys(for: venue), period: profile.period, skew: profile.skew,
                                           authenticator: authenticator)
        let moment = (verifiedAt ?? now).seconds
        let verification = switch scan.code {
        case .token(let token): verifier.verify(token: token, venue: venue, at: moment)
        case .safeNumber(let number): verifier.verify(safeNumber: number, venue: venue, at: moment)
        }
        let accepted: AcceptedCheckIn
        switch verification {
        case .rejected(let rejection): return .answer(refuse(RefusalReason(rejection), venue: venue, method, now))
        case .valid(let valid): accepted = valid
        }
        // A phone new to the server counts against the new-device budgets, once: here, before
        // its visitor form (whose answer comes with the cookie it is given now) or its check-in.
        if case .new(_, let network) = scan.device,
           newDevices.admit(network: network, venue: venue, window: accepted.window, perHour: profile.newDevicesPerHour, at: now) != nil {
            return .answer(refuse(.tooManyNewDevices, venue: venue, method, now))
        }
        let visitor = scan.visitor
        if !profile.visitorFields.isEmpty, !(visitor?.provides(profile.visitorFields) ?? false) {
            return .answer(.needsVisitor(venue, profile.visitorFields, verifiedAt: verifiedAt ?? now))
        }
        let age = profile.period.window(at: moment) - accepted.window
        let entry = NewCheckIn(venue: venue, time: now, method: method, windowAge: Int(age), device: scan.device.id,
                               visitor: profile.visitorFields.isEmpty ? nil : visitor)
        return .record(entry, duplicateSeconds: profile.duplicateSeconds)
    }

    /// A refusal, kept in the refusal log when the ledger can take it (a refusal is answered
    /// the same when it cannot: nothing is lost that a visitor was promised).
    private func refuse(_ reason: RefusalReason, venue: VenueID?, _ method: CheckInMethod, _ now: WallTime) -> CheckInOutcome {
        ledger.recordRefusalLater(Refusal(venue: venue, time: now, reason: reason, method: method))
        return .refused(reason, venue: venue)
    }
}

extension CheckInUseCase {
    /// The profile of `venue`, or nil when this server does not serve it.
    public func profile(of venue: VenueID) -> VenueProfile? {
        venues.profile(for: venue)
    }

    /// The name pages show for `venue`: its configured name, else its id.
    public func displayName(of venue: VenueID) -> String {
        venues.profile(for: venue)?.name(of: venue) ?? venue.rawValue
    }

    /// The check-in a receipt shows: check-in `id`, only when it is at `venue` and was made by
    /// `device` (nobody else's receipt can be opened by guessing ids).
    public func receipt(id: Int64, venue: VenueID, device: DeviceID) throws(LedgerError) -> CheckIn? {
        guard let checkIn = try ledger.find(id: id), checkIn.venue == venue, checkIn.device == device else { return nil }
        return checkIn
    }
}
