import ServerDomain

/// The webhooks' outbox and endpoints in the ledger's file (issue 40; `SQLEngine+Webhooks`).
extension SQLiteLedger: WebhookLedger {}
