/// What `/metrics` shows of the webhooks (issue 40): the outbox's events by state (the ledger's,
/// the same at every server of one PostgreSQL) and this server's deliveries since it started.
public struct WebhookMetrics: Hashable, Sendable {
    /// The outbox: pending, delivered and failed events.
    public var events: WebhookCounts
    /// This server's attempts since start: delivered, failed for good, to be retried.
    public var delivered: Int
    public var failed: Int
    public var retried: Int
    /// The delivered events' summed latency (from the event to its delivery), milliseconds.
    public var latencyMilliseconds: Int64

    public init(events: WebhookCounts, delivered: Int, failed: Int, retried: Int, latencyMilliseconds: Int64) {
        self.events = events
        self.delivered = delivered
        self.failed = failed
        self.retried = retried
        self.latencyMilliseconds = latencyMilliseconds
    }
}
