import SharedDomain

/// Use case: an operator manages webhook endpoints (`qrcheckin-server webhook`, the console's
/// webhooks page), each change and its entry (`webhook-add`, `-remove`, `-disable`, `-enable`,
/// `-rotate-secret`, `-test`, `-redeliver`) in one transaction. A change of an endpoint that
/// does not exist changes nothing and writes no entry. Secrets never appear in an entry.
public struct WebhookChanges: Sendable {
    /// Whose actions, on which ledger.
    public let trail: AuditTrail

    public init(trail: AuditTrail) {
        self.trail = trail
    }

    /// Adds `endpoint`; false when its name is taken.
    public func add(_ endpoint: WebhookEndpoint) async throws(LedgerError) -> Bool {
        let detail = Self.describe(endpoint)
        return try await trail.change({ transaction throws(LedgerError) in try Self.webhooks(transaction).addWebhookEndpoint(endpoint) },
                                note: { $0 ? AuditNote(.webhookAdd, subject: "webhook \(endpoint.name)", detail: detail) : nil }).value
    }

    /// Removes the endpoint `name` with its events and attempts; false when there is none.
    public func remove(named name: String) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try Self.webhooks(transaction).removeWebhookEndpoint(named: name) },
                         note: { $0 ? AuditNote(.webhookRemove, subject: "webhook \(name)") : nil }).value
    }

    /// Disables or enables the endpoint `name`; false when there is none.
    public func setDisabled(named name: String, _ disabled: Bool) async throws(LedgerError) -> Bool {
        let disabling = disabled ? WebhookDisabling(time: trail.clock.now(), reason: "by \(trail.actor.name)") : nil
        return try await trail.change({ transaction throws(LedgerError) in try Self.webhooks(transaction).setWebhookDisabled(named: name, disabling) },
                                note: { $0 ? AuditNote(disabled ? .webhookDisable : .webhookEnable, subject: "webhook \(name)") : nil }).value
    }

    /// Replaces the secret of the endpoint `name` with `secret`; false when there is none.
    public func rotateSecret(named name: String, _ secret: WebhookSecret) async throws(LedgerError) -> Bool {
        try await trail.change({ transaction throws(LedgerError) in try Self.webhooks(transaction).setWebhookSecret(named: name, secret) },
                         note: { $0 ? AuditNote(.webhookRotateSecret, subject: "webhook \(name)") : nil }).value
    }

    /// Queues a `test` event for the endpoint `name`, due now; its id, nil when there is none.
    public func test(named name: String) async throws(LedgerError) -> Int64? {
        let now = trail.clock.now()
        return try await trail.change({ transaction throws(LedgerError) -> Int64? in
            let webhooks = try Self.webhooks(transaction)
            guard try webhooks.webhookEndpoint(named: name) != nil else { return nil }
            return try webhooks.enqueueWebhookTest(named: name, at: now)
        }, note: { id in id.map { AuditNote(.webhookTest, subject: "webhook \(name)", detail: "event \($0)") } }).value
    }

    /// Queues the failed events of `name` (or its one event `event`) again, due now; how many,
    /// nil when there is no such endpoint.
    public func redeliver(named name: String, event: Int64? = nil) async throws(LedgerError) -> Int? {
        let now = trail.clock.now()
        return try await trail.change({ transaction throws(LedgerError) -> Int? in
            let webhooks = try Self.webhooks(transaction)
            guard try webhooks.webhookEndpoint(named: name) != nil else { return nil }
            return try webhooks.redeliverWebhooks(named: name, event: event, at: now)
        }, note: { count in
            count.map { AuditNote(.webhookRedeliver, subject: "webhook \(name)", detail: event.map { "event \($0)" } ?? "failed events", rows: $0) }
        }).value
    }

    /// The entry's words of an endpoint: its URL, events, venues and whether personal.
    static func describe(_ endpoint: WebhookEndpoint) -> String {
        var parts = [endpoint.url, "events " + WebhookEventType.allCases.filter(endpoint.events.contains).map(\.rawValue).joined(separator: ",")]
        if !endpoint.venues.isEmpty { parts.append("venues " + endpoint.venues.map(\.rawValue).joined(separator: ",")) }
        if endpoint.personal { parts.append("personal: names and phones") }
        return parts.joined(separator: "; ")
    }

    static func webhooks(_ transaction: any LedgerTransaction) throws(LedgerError) -> any WebhookTransaction {
        guard let webhooks = transaction as? any WebhookTransaction else { throw LedgerError(.failed, "this ledger keeps no webhooks") }
        return webhooks
    }
}
