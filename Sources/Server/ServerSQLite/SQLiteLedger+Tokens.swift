import ServerDomain
import SharedDomain

/// The API's tokens (`APITokens`). Until the ledger's reads move onto the blocking pool (issue
/// 38's `SQLEngine`), a lookup runs on the writer's own thread (a point read by the hash's key,
/// ordered with the writes), never on Swift's cooperative threads.
extension SQLiteLedger: APITokens {
    public func token(secretHash: String) async throws(LedgerError) -> APIToken? {
        try await onWriter { [sql] connection throws(LedgerError) in try sql.token(secretHash: secretHash, on: SQLiteSession(connection)) }
    }

    public func tokens() async throws(LedgerError) -> [APIToken] {
        try await onWriter { [sql] connection throws(LedgerError) in try sql.tokens(on: SQLiteSession(connection)) }
    }

    /// `work` on the writer's thread, its answer awaited (the task suspended, no thread waiting).
    private func onWriter<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws(LedgerError) -> T) async throws(LedgerError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, LedgerError>, Never>) in
            writer.submit(work) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
