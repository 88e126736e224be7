import ServerDomain

/// The webhooks' outbox and endpoints in the shared database (issue 40; `SQLEngine+Webhooks`):
/// every server of one PostgreSQL delivers from the one outbox, its claims skipping the rows
/// another server's claim holds.
extension PostgresLedger: WebhookLedger {}
