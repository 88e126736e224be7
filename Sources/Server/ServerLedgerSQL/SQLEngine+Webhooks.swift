import ServerDomain
import SharedDomain

// Issue 40's `WebhookLedger`, written once for both SQL engines over `SQLEngine`'s sessions
// (each engine declares the conformance). A claim and a result are transactions of their own
// (`writeAlone`): never batched with a visitor's check-in, whose failure must not undo them.

extension SQLEngine {
    public func webhookEndpoints() async throws(LedgerError) -> [WebhookEndpoint] {
        try await reading { [sql] session throws(LedgerError) in try sql.webhookEndpoints(on: session) }
    }

    public func claimWebhookEvents(now: WallTime, leaseUntil: WallTime, limit: Int) async throws(LedgerError) -> [WebhookEvent] {
        try await observer.watching { () async throws(LedgerError) in
            try await writeAlone { [sql] session throws(LedgerError) in
                try sql.claimWebhookEvents(now: now, leaseUntil: leaseUntil, limit: limit, on: session)
            }
        }
    }

    public func recordWebhookResults(_ results: [WebhookResult]) async throws(LedgerError) {
        try await observer.watching { () async throws(LedgerError) in
            try await writeAlone { [sql] session throws(LedgerError) in try sql.recordWebhookResults(results, on: session) }
        }
    }

    public func webhookAttempts(endpoint: String?, limit: Int) async throws(LedgerError) -> [WebhookAttempt] {
        try await reading { [sql] session throws(LedgerError) in try sql.webhookAttempts(endpoint: endpoint, limit: limit, on: session) }
    }

    public func webhookEvents(endpoint: String?, state: WebhookEventState?, limit: Int) async throws(LedgerError) -> [WebhookEvent] {
        try await reading { [sql] session throws(LedgerError) in try sql.webhookEvents(endpoint: endpoint, state: state, limit: limit, on: session) }
    }

    public func webhookCounts() async throws(LedgerError) -> WebhookCounts {
        try await reading { [sql] session throws(LedgerError) in try sql.webhookCounts(on: session) }
    }

    public func purgeWebhooks(eventsBefore: WallTime, attemptsBefore: WallTime) async throws(LedgerError) -> Int {
        try await writing { [sql] session throws(LedgerError) in
            try sql.purgeWebhooks(eventsBefore: eventsBefore, attemptsBefore: attemptsBefore, on: session)
        }
    }
}
