import SharedDomain

/// Port: the webhooks' endpoints and outbox, kept in the ledger's database (SQLite, PostgreSQL,
/// or memory for tests), each passing `WebhookContract`. The outbox's rows are written by the
/// check-in, exit and refusal they report, in their transaction (`VisitLedger`, `RefusalLog`);
/// this port is what delivers them and what operators read. Operator changes (add, remove,
/// disable, rotate, redeliver) go through `WebhookChanges`, each with its audit entry.
public protocol WebhookLedger: Sendable {
    /// Every endpoint, by name.
    func webhookEndpoints() async throws(LedgerError) -> [WebhookEndpoint]

    /// Claims up to `limit` pending events due at `now` for delivery, oldest due first, leasing
    /// them until `leaseUntil`: no other server (nor this one) claims them before then, unless
    /// their result is recorded. A server killed mid-delivery leaves its claims to expire.
    /// Events of a disabled or removed endpoint are not claimed.
    func claimWebhookEvents(now: WallTime, leaseUntil: WallTime, limit: Int) async throws(LedgerError) -> [WebhookEvent]

    /// Records the attempts' results in one transaction: each attempt in the delivery log, each
    /// event delivered, due again or failed, and the endpoint of a 410 disabled.
    func recordWebhookResults(_ results: [WebhookResult]) async throws(LedgerError)

    /// The delivery log of `endpoint` (nil: every endpoint), newest first, at most `limit`.
    func webhookAttempts(endpoint: String?, limit: Int) async throws(LedgerError) -> [WebhookAttempt]

    /// The events of `endpoint` (nil: every endpoint) in `state` (nil: any), newest first.
    func webhookEvents(endpoint: String?, state: WebhookEventState?, limit: Int) async throws(LedgerError) -> [WebhookEvent]

    /// The outbox's counts, of every endpoint.
    func webhookCounts() async throws(LedgerError) -> WebhookCounts

    /// Deletes delivered and failed events that ended before `eventsBefore` and attempts made
    /// before `attemptsBefore`; returns how many rows went.
    func purgeWebhooks(eventsBefore: WallTime, attemptsBefore: WallTime) async throws(LedgerError) -> Int
}

/// The webhook changes an operator's transaction makes (`LedgerTransaction`s of the engines
/// that keep webhooks conform), each with `WebhookChanges`' audit entry beside it.
public protocol WebhookTransaction {
    /// Adds `endpoint` (false, nothing changed: the name is taken).
    func addWebhookEndpoint(_ endpoint: WebhookEndpoint) throws(LedgerError) -> Bool
    /// The endpoint named `name`, if any.
    func webhookEndpoint(named name: String) throws(LedgerError) -> WebhookEndpoint?
    /// Removes the endpoint and its events and attempts (false: none).
    func removeWebhookEndpoint(named name: String) throws(LedgerError) -> Bool
    /// Disables (with why) or enables (nil) the endpoint (false: none).
    func setWebhookDisabled(named name: String, _ disabling: WebhookDisabling?) throws(LedgerError) -> Bool
    /// Replaces the endpoint's secret (false: none).
    func setWebhookSecret(named name: String, _ secret: WebhookSecret) throws(LedgerError) -> Bool
    /// Puts a `test` event for the endpoint in the outbox, due at `time`; its id.
    func enqueueWebhookTest(named name: String, at time: WallTime) throws(LedgerError) -> Int64
    /// Makes the failed events of `endpoint` (or the one event `event`, whatever its state) due
    /// again at `time` with a fresh schedule; how many.
    func redeliverWebhooks(named name: String, event: Int64?, at time: WallTime) throws(LedgerError) -> Int
}
