import ServerDomain
import SharedDomain

/// The API's tokens (`APITokens`). Until the ledger's reads move onto the blocking pool (issue
/// 38's `SQLEngine`), a lookup runs on the ledger's own worker threads, never on Swift's
/// cooperative threads.
extension PostgresLedger: APITokens {
    public func token(secretHash: String) async throws(LedgerError) -> APIToken? {
        try await onWorker { () throws(LedgerError) in try self.read { session throws(LedgerError) in try self.sql.token(secretHash: secretHash, on: session) } }
    }

    public func tokens() async throws(LedgerError) -> [APIToken] {
        try await onWorker { () throws(LedgerError) in try self.read { session throws(LedgerError) in try self.sql.tokens(on: session) } }
    }

    /// `work` on a worker thread, its answer awaited (the task suspended, no thread waiting).
    private func onWorker<T: Sendable>(_ work: @escaping @Sendable () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, LedgerError>, Never>) in
            submit { continuation.resume(returning: Result { () throws(LedgerError) in try work() }) }
        }
        return try result.get()
    }
}
