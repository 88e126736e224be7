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
    /// The visits (record, exits, receipts, occupancy).
    public let visits: any VisitLedger
    /// Where refused scans are kept.
    public let refusals: any RefusalLog
    /// The server's clock.
    public let clock: any WallClock
    /// The budgets new devices are counted against.
    public let newDevices: NewDeviceBudget
    /// The venues' keys, derived once.
    private let venueKeys: VenueKeyCache

    /// A use case over these parts; `keys` must not be empty.
    public init(venues: VenueDirectory, keys: [SigningKeySource], authenticator: any MessageAuthenticator,
                ledger: any VisitLedger & RefusalLog, clock: any WallClock, newDevices: NewDeviceBudget = NewDeviceBudget()) {
        precondition(!keys.isEmpty, "a check-in server needs a key")
        self.venues = venues
        self.keys = keys
        self.authenticator = authenticator
        visits = ledger
        refusals = ledger
        self.clock = clock
        self.newDevices = newDevices
        venueKeys = VenueKeyCache(sources: keys, authenticator: authenticator)
    }

    /// Checks `scan` in and returns the outcome: after the ledger's commit for a check-in or
    /// an exit, at once for refusals and forms. `verifiedAt` is the moment to verify the code
    /// at, when the adapter vouches that it verified the same code then (a visitor form filled
    /// in after the scan); nil verifies at the clock's now. The check-in's time is always now.
    public func checkIn(_ scan: Scan, verifiedAt: WallTime? = nil) async -> CheckInOutcome {
        switch decide(scan, verifiedAt: verifiedAt) {
        case .answer(let outcome):
            return outcome
        case .record(let entry, let rules):
            do throws(LedgerError) {
                return outcome(try await visits.record(entry, rules: rules), entry)
            } catch {
                return .unavailable(error)
            }
        case .exit(let device, let venue):
            let request = CheckOutRequest(.device(device, venue: venue), at: clock.now(), kind: .kiosk)
            do throws(LedgerError) {
                let report = try await visits.checkOut(request)
                guard let visit = report.visit else { return .noVisit(venue) }
                return .checkedOut(visit, again: report.closed == 0)
            } catch {
                return .unavailable(error)
            }
        }
    }

    /// What the use case decided before the ledger: an answer, a check-in to record, or (an
    /// exit kiosk's code) the exit of the device's visit at the venue the kiosk serves.
    private enum Decision {
        case answer(CheckInOutcome)
        case record(NewCheckIn, rules: AdmissionRules)
        case exit(DeviceID, venue: VenueID)
    }

    private func outcome(_ admission: Admission, _ entry: NewCheckIn) -> CheckInOutcome {
        switch admission {
        case .admitted(.recorded(let checkIn)): return .checkedIn(checkIn)
        case .admitted(.duplicate(of: let earlier)): return .alreadyCheckedIn(earlier)
        case .full(let inside):
            refusals.recordRefusalLater(Refusal(venue: entry.venue, time: entry.time, reason: .full, method: entry.method))
            return .full(entry.venue, inside: inside, capacity: venues.profile(for: entry.venue)?.presence.capacity ?? inside)
        }
    }

    private func decide(_ scan: Scan, verifiedAt: WallTime?) -> Decision {
        let now = clock.now()
        let method = scan.code.method
        guard let venue = scan.venue else { return .answer(refuse(.malformed, venue: nil, method, now)) }
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
        // An exit kiosk's code ends the device's visit at the venue it serves; a phone the
        // server does not know has no visit to end (and gets no cookie for it).
        if let served = profile.presence.exitOf {
            guard case .known(let device) = scan.device else { return .answer(.noVisit(served)) }
            return .exit(device, venue: served)
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
        return .record(entry, rules: profile.admissionRules(at: now))
    }

    /// A refusal, kept in the refusal log when the ledger can take it (a refusal is answered
    /// the same when it cannot: nothing is lost that a visitor was promised).
    private func refuse(_ reason: RefusalReason, venue: VenueID?, _ method: CheckInMethod, _ now: WallTime) -> CheckInOutcome {
        refusals.recordRefusalLater(Refusal(venue: venue, time: now, reason: reason, method: method))
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
    public func receipt(id: Int64, venue: VenueID, device: DeviceID) async throws(LedgerError) -> CheckIn? {
        guard let checkIn = try await visits.find(id: id), checkIn.venue == venue, checkIn.device == device else { return nil }
        return checkIn
    }
}

extension CheckInUseCase {
    /// The receipt's "check out": ends visit `id` at `venue` when `device` made it (nobody
    /// else's visit can be ended by guessing ids), returning after the commit the visit as it
    /// now is, or nil when there is no such visit of that device.
    public func checkOut(id: Int64, venue: VenueID, device: DeviceID) async throws(LedgerError) -> (visit: CheckIn, again: Bool)? {
        guard let visit = try await receipt(id: id, venue: venue, device: device) else { return nil }
        if visit.exit != nil { return (visit, true) }
        let report = try await visits.checkOut(CheckOutRequest(.checkIn(id), at: clock.now(), kind: .receipt))
        return report.visit.map { ($0, report.closed == 0) }
    }

    /// How many are inside `venue` now (visits open, entered within its `max-stay`) and its
    /// capacity: what the occupancy endpoint and a door sign show.
    public func occupancy(of venue: VenueID) async throws(LedgerError) -> (inside: Int, capacity: Int?, at: WallTime)? {
        guard let profile = venues.profile(for: venue) else { return nil }
        let now = clock.now()
        let inside = try await visits.occupancy(venue: venue, openSince: profile.openSince(at: now))[venue] ?? 0
        return (inside, profile.presence.capacity, now)
    }
}
