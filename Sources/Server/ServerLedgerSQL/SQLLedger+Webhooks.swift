import ServerDomain
import SharedDomain

/// Issue 40's webhooks over an engine's session: the endpoints, the outbox's rows written
/// beside the check-ins, exits and refusals they report (`enqueue…`, called by `record`,
/// `checkOut` and `recordRefusal` in their transaction), the claims with a lease, the results
/// and the delivery log.
extension SQLLedger {
    // MARK: The outbox, in the visitor log's transactions

    /// After a check-in's insert: its events for the endpoints that hear it.
    func enqueueCheckIn(_ checkIn: NewCheckIn, row: Int64, on session: any SQLSession) throws(LedgerError) {
        try session.run(WebhookStatements.enqueueCheckIn, [
            .integer(checkIn.time.milliseconds), .text(checkIn.venue.rawValue), .integer(row), .text(checkIn.method.rawValue),
            .text(checkIn.visitor?.name), .text(checkIn.visitor?.phone),
            .integer(WebhookEventType.checkin.bit),
        ])
    }

    /// After one visit's exit: its events.
    func enqueueCheckOut(row: Int64, at time: WallTime, on session: any SQLSession) throws(LedgerError) {
        try session.run(WebhookStatements.enqueueCheckOut, [.integer(time.milliseconds), .integer(row), .integer(WebhookEventType.checkout.bit)])
    }

    /// Before `endOpenVisits` with the same values: the events of the exits it will record.
    func enqueueEndOpen(_ values: [SQLValue], on session: any SQLSession) throws(LedgerError) {
        try session.run(WebhookStatements.enqueueEndOpen, values + [.integer(WebhookEventType.checkout.bit)])
    }

    /// Beside a refusal's insert: its events (`full` for a full venue, else `refused`).
    func enqueueRefusal(_ refusal: Refusal, on session: any SQLSession) throws(LedgerError) {
        let type: WebhookEventType = refusal.reason == .full ? .full : .refused
        try session.run(WebhookStatements.enqueueRefusal, [
            .text(type.rawValue), .integer(refusal.time.milliseconds), .text(refusal.venue?.rawValue), .text(refusal.method.rawValue),
            .text(refusal.reason.rawValue), .integer(type.bit),
        ])
    }

    /// Beside a kiosk's announcement: its events.
    func enqueueKiosk(_ announcement: KioskAnnouncement, at time: WallTime, on session: any SQLSession) throws(LedgerError) {
        try session.run(WebhookStatements.enqueueKiosk, [
            .integer(time.milliseconds), .text(announcement.key.venue.rawValue), .text(announcement.key.name.rawValue),
            .text(announcement.state.rawValue), .text(announcement.problems.joined(separator: " ")), .integer(WebhookEventType.kiosk.bit),
        ])
    }

    /// An erasure's step, before its rows go: their events and the attempts to send them.
    func eraseWebhookEvents(_ column: ErasureColumn, _ value: SQLValue, on session: any SQLSession) throws(LedgerError) {
        try session.run(SQLStatement("""
            DELETE FROM webhook_attempts WHERE event IN (SELECT w.id FROM webhook_events w JOIN checkins c ON c.id = w.checkin WHERE c.\(column.rawValue) = $1)
            """), [value])
        try session.run(SQLStatement("DELETE FROM webhook_events WHERE checkin IN (SELECT id FROM checkins WHERE \(column.rawValue) = $1)"), [value])
    }

    // MARK: Endpoints

    public func addWebhookEndpoint(_ endpoint: WebhookEndpoint, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(WebhookStatements.insertEndpoint, [
            .text(endpoint.name), .text(endpoint.url), .text(endpoint.secret.text), .integer(WebhookEventType.bits(endpoint.events)),
            .text(endpoint.venueList), .integer(endpoint.personal ? 1 : 0), .integer(endpoint.disabled?.time.milliseconds),
            .text(endpoint.disabled?.reason), .integer(endpoint.created.milliseconds),
        ], { _ in true }) != nil
    }

    public func webhookEndpoint(named name: String, on session: any SQLSession) throws(LedgerError) -> WebhookEndpoint? {
        try session.first(WebhookStatements.selectEndpoint, [.text(name)]) { row throws(LedgerError) in try Self.endpoint(row, session.target) }
    }

    public func webhookEndpoints(on session: any SQLSession) throws(LedgerError) -> [WebhookEndpoint] {
        try session.all(WebhookStatements.selectEndpoints, []) { row throws(LedgerError) in try Self.endpoint(row, session.target) }
    }

    public func removeWebhookEndpoint(named name: String, on session: any SQLSession) throws(LedgerError) -> Bool {
        guard try session.first(WebhookStatements.deleteEndpoint, [.text(name)], { _ in true }) != nil else { return false }
        try session.run(WebhookStatements.deleteAttemptsOf, [.text(name)])
        try session.run(WebhookStatements.deleteEventsOf, [.text(name)])
        return true
    }

    public func setWebhookDisabled(named name: String, _ disabling: WebhookDisabling?, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(WebhookStatements.setDisabled, [.text(name), .integer(disabling?.time.milliseconds), .text(disabling?.reason)],
                          { _ in true }) != nil
    }

    public func setWebhookSecret(named name: String, _ secret: WebhookSecret, on session: any SQLSession) throws(LedgerError) -> Bool {
        try session.first(WebhookStatements.setSecret, [.text(name), .text(secret.text)], { _ in true }) != nil
    }

    public func enqueueWebhookTest(named name: String, at time: WallTime, on session: any SQLSession) throws(LedgerError) -> Int64 {
        guard let id = try session.first(WebhookStatements.enqueueTest, [.text(name), .integer(time.milliseconds)], { row throws(LedgerError) in
            try row.integer(0)
        }) ?? nil else { throw LedgerError(.failed, "\(session.target): the test event's insert returned no id") }
        return id
    }

    public func redeliverWebhooks(named name: String, event: Int64?, at time: WallTime, on session: any SQLSession) throws(LedgerError) -> Int {
        try session.run(WebhookStatements.redeliver, [.text(name), .integer(event), .integer(time.milliseconds)])
    }

    // MARK: Delivery

    public func claimWebhookEvents(now: WallTime, leaseUntil: WallTime, limit: Int, on session: any SQLSession) throws(LedgerError) -> [WebhookEvent] {
        try session.all(WebhookStatements.claim, [.integer(now.milliseconds), .integer(leaseUntil.milliseconds), .integer(Int64(limit))]) {
            row throws(LedgerError) in try event(row, session.target)
        }.sorted { ($0.next.milliseconds, $0.id) < ($1.next.milliseconds, $1.id) }
    }

    public func recordWebhookResults(_ results: [WebhookResult], on session: any SQLSession) throws(LedgerError) {
        for result in results {
            let attempt = result.attempt
            try session.run(WebhookStatements.insertAttempt, [
                .integer(attempt.event), .text(attempt.endpoint), .integer(attempt.time.milliseconds), .integer(attempt.status.map(Int64.init)),
                .integer(attempt.milliseconds), .text(attempt.answer),
            ])
            let done = attempt.time.milliseconds + attempt.milliseconds
            let (state, next, ended): (WebhookEventState, Int64, Int64?) = switch result.verdict {
            case .delivered: (.delivered, done, done)
            case .retry(let at): (.pending, at.milliseconds, nil)
            case .failed, .gone: (.failed, done, done)
            }
            try session.run(WebhookStatements.finishAttempt, [.integer(attempt.event), .text(state.rawValue), .integer(next), .integer(ended)])
            if result.verdict == .gone {
                try session.run(WebhookStatements.disableGone, [.text(attempt.endpoint), .integer(done), .text("the receiver answered 410 Gone")])
            }
        }
    }

    public func webhookAttempts(endpoint: String?, limit: Int, on session: any SQLSession) throws(LedgerError) -> [WebhookAttempt] {
        try session.all(WebhookStatements.selectAttempts, [.text(endpoint), .integer(Int64(limit))]) { row throws(LedgerError) in
            guard let event = try row.integer(0), let endpoint = row.text(1), let time = try row.integer(2), let duration = try row.integer(4) else {
                throw LedgerError(.corrupt, "\(session.target): a webhook attempt no ledger writes")
            }
            return WebhookAttempt(event: event, endpoint: endpoint, time: WallTime(milliseconds: time), status: try row.integer(3).map { Int($0) },
                                  milliseconds: duration, answer: row.text(5) ?? "")
        }
    }

    public func webhookEvents(endpoint: String?, state: WebhookEventState?, limit: Int, on session: any SQLSession) throws(LedgerError) -> [WebhookEvent] {
        try session.all(WebhookStatements.selectEvents, [.text(endpoint), .text(state?.rawValue), .integer(Int64(limit))]) { row throws(LedgerError) in
            try event(row, session.target)
        }
    }

    public func webhookCounts(on session: any SQLSession) throws(LedgerError) -> WebhookCounts {
        var counts = WebhookCounts()
        try session.query(WebhookStatements.count, []) { row throws(LedgerError) in
            let count = Int(try row.integer(1) ?? 0)
            switch row.text(0).flatMap(WebhookEventState.init(rawValue:)) {
            case .pending: counts.pending = count
            case .delivered: counts.delivered = count
            case .failed: counts.failed = count
            case nil: break
            }
            return true
        }
        return counts
    }

    public func purgeWebhooks(eventsBefore: WallTime, attemptsBefore: WallTime, on session: any SQLSession) throws(LedgerError) -> Int {
        try session.run(WebhookStatements.purgeEvents, [.integer(eventsBefore.milliseconds)])
            + session.run(WebhookStatements.purgeAttempts, [.integer(attemptsBefore.milliseconds)])
    }

    // MARK: Rows

    static func endpoint(_ row: any SQLRow, _ target: String) throws(LedgerError) -> WebhookEndpoint {
        guard let name = row.text(0), let url = row.text(1), let secret = row.text(2).flatMap(WebhookSecret.init), let events = try row.integer(3),
              let created = try row.integer(8) else {
            throw LedgerError(.corrupt, "\(target): a webhook endpoint no ledger writes")
        }
        let disabled = try row.integer(6).map { WebhookDisabling(time: WallTime(milliseconds: $0), reason: row.text(7) ?? "") }
        return WebhookEndpoint(name: name, url: url, secret: secret, events: WebhookEventType.types(bits: events),
                               venues: WebhookEndpoint.venues(list: row.text(4) ?? ""), personal: try row.integer(5) == 1, disabled: disabled,
                               created: WallTime(milliseconds: created))
    }

    func event(_ row: any SQLRow, _ target: String) throws(LedgerError) -> WebhookEvent {
        guard let id = try row.integer(0), let endpoint = row.text(1), let type = row.text(2).flatMap(WebhookEventType.init(rawValue:)),
              let time = try row.integer(3), let state = row.text(13).flatMap(WebhookEventState.init(rawValue:)), let attempts = try row.integer(14),
              let next = try row.integer(15) else {
            throw LedgerError(.corrupt, "\(target): a webhook event no ledger writes")
        }
        return WebhookEvent(id: id, endpoint: endpoint, type: type, time: WallTime(milliseconds: time), venue: row.text(4).flatMap { try? VenueID($0) },
                            checkIn: try row.integer(5).flatMap { try? ids.shownID(row: $0) }, method: row.text(6),
                            exitKind: row.text(7).flatMap(ExitKind.init(rawValue:)), staySeconds: try row.integer(8).map { $0 / 1000 },
                            occupancy: try row.integer(9).map { Int($0) }, reason: row.text(10), visitorName: row.text(11), visitorPhone: row.text(12),
                            kiosk: row.text(17).flatMap { try? KioskName($0) }, kioskState: row.text(18).flatMap(KioskState.init(rawValue:)),
                            problems: row.text(19).map { $0.split(separator: " ").map(String.init) } ?? [], state: state, attempts: Int(attempts), next: WallTime(milliseconds: next),
                            done: try row.integer(16).map { WallTime(milliseconds: $0) })
    }
}

/// The webhooks' statements, rendered once per dialect.
enum WebhookStatements {
    static let enqueueCheckIn = SQLStatement(LedgerSchema.enqueueCheckInWebhooks)
    static let enqueueCheckOut = SQLStatement(LedgerSchema.enqueueCheckOutWebhooks)
    static let enqueueEndOpen = SQLStatement(LedgerSchema.enqueueEndOpenWebhooks)
    static let enqueueRefusal = SQLStatement(LedgerSchema.enqueueRefusalWebhooks)
    static let enqueueKiosk = SQLStatement(LedgerSchema.enqueueKioskWebhooks)
    static let enqueueTest = SQLStatement(LedgerSchema.enqueueTestWebhook)
    static let insertEndpoint = SQLStatement(LedgerSchema.insertWebhookEndpoint)
    static let selectEndpoint = SQLStatement(LedgerSchema.selectWebhookEndpoint)
    static let selectEndpoints = SQLStatement(LedgerSchema.selectWebhookEndpoints)
    static let deleteEndpoint = SQLStatement(LedgerSchema.deleteWebhookEndpoint)
    static let deleteEventsOf = SQLStatement(LedgerSchema.deleteWebhookEventsOf)
    static let deleteAttemptsOf = SQLStatement(LedgerSchema.deleteWebhookAttemptsOf)
    static let setDisabled = SQLStatement(LedgerSchema.setWebhookDisabled)
    static let disableGone = SQLStatement(LedgerSchema.disableGoneWebhook)
    static let setSecret = SQLStatement(LedgerSchema.setWebhookSecret)
    static let claim = SQLStatement(LedgerSchema.claimWebhookEvents)
    static let insertAttempt = SQLStatement(LedgerSchema.insertWebhookAttempt)
    static let finishAttempt = SQLStatement(LedgerSchema.finishWebhookAttempt)
    static let redeliver = SQLStatement(LedgerSchema.redeliverWebhooks)
    static let selectAttempts = SQLStatement(LedgerSchema.selectWebhookAttempts)
    static let selectEvents = SQLStatement(LedgerSchema.selectWebhookEvents)
    static let count = SQLStatement(LedgerSchema.countWebhookEvents)
    static let purgeEvents = SQLStatement(LedgerSchema.purgeWebhookEvents)
    static let purgeAttempts = SQLStatement(LedgerSchema.purgeWebhookAttempts)
}

/// An operator's transaction's webhook changes (`WebhookChanges`), on the engine's session.
extension SQLTransaction: WebhookTransaction {
    public func addWebhookEndpoint(_ endpoint: WebhookEndpoint) throws(LedgerError) -> Bool {
        try ledger.addWebhookEndpoint(endpoint, on: session)
    }

    public func webhookEndpoint(named name: String) throws(LedgerError) -> WebhookEndpoint? {
        try ledger.webhookEndpoint(named: name, on: session)
    }

    public func removeWebhookEndpoint(named name: String) throws(LedgerError) -> Bool {
        try ledger.removeWebhookEndpoint(named: name, on: session)
    }

    public func setWebhookDisabled(named name: String, _ disabling: WebhookDisabling?) throws(LedgerError) -> Bool {
        try ledger.setWebhookDisabled(named: name, disabling, on: session)
    }

    public func setWebhookSecret(named name: String, _ secret: WebhookSecret) throws(LedgerError) -> Bool {
        try ledger.setWebhookSecret(named: name, secret, on: session)
    }

    public func enqueueWebhookTest(named name: String, at time: WallTime) throws(LedgerError) -> Int64 {
        try ledger.enqueueWebhookTest(named: name, at: time, on: session)
    }

    public func redeliverWebhooks(named name: String, event: Int64?, at time: WallTime) throws(LedgerError) -> Int {
        try ledger.redeliverWebhooks(named: name, event: event, at: time, on: session)
    }
}
