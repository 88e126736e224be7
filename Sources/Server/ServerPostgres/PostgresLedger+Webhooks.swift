import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// The webhooks' outbox and endpoints in the shared database (issue 40): every server of one
/// PostgreSQL delivers from the one outbox, its claims skipping the rows another server's claim
/// holds. (Until the core's move onto `SQLEngine`, each call blocks its caller until committed.)
extension PostgresLedger: WebhookLedger {
    public func webhookEndpoints() async throws(LedgerError) -> [WebhookEndpoint] {
        try read { session throws(LedgerError) in try sql.webhookEndpoints(on: session) }
    }

    public func claimWebhookEvents(now: WallTime, leaseUntil: WallTime, limit: Int) async throws(LedgerError) -> [WebhookEvent] {
        // Not repeatable: a claim sent again after a lost connection could lease twice (the
        // lease's expiry then frees the events).
        try alone(repeatable: false) { session throws(LedgerError) in
            try sql.claimWebhookEvents(now: now, leaseUntil: leaseUntil, limit: limit, on: session)
        }
    }

    public func recordWebhookResults(_ results: [WebhookResult]) async throws(LedgerError) {
        try alone(repeatable: false) { session throws(LedgerError) in try sql.recordWebhookResults(results, on: session) }
    }

    public func webhookAttempts(endpoint: String?, limit: Int) async throws(LedgerError) -> [WebhookAttempt] {
        try read { session throws(LedgerError) in try sql.webhookAttempts(endpoint: endpoint, limit: limit, on: session) }
    }

    public func webhookEvents(endpoint: String?, state: WebhookEventState?, limit: Int) async throws(LedgerError) -> [WebhookEvent] {
        try read { session throws(LedgerError) in try sql.webhookEvents(endpoint: endpoint, state: state, limit: limit, on: session) }
    }

    public func webhookCounts() async throws(LedgerError) -> WebhookCounts {
        try read { session throws(LedgerError) in try sql.webhookCounts(on: session) }
    }

    public func purgeWebhooks(eventsBefore: WallTime, attemptsBefore: WallTime) async throws(LedgerError) -> Int {
        try alone(repeatable: true) { session throws(LedgerError) in
            try sql.purgeWebhooks(eventsBefore: eventsBefore, attemptsBefore: attemptsBefore, on: session)
        }
    }
}
