import Synchronization

/// Told of each answer an engine gave (a read, a commit, a failure): how the server notices an
/// outage without a decorator forwarding every port (`LedgerHealthWatch`). Called on any
/// thread, once per call of a port; must not block.
public protocol LedgerObserver: Sendable {
    /// A call of a port succeeded, or failed with its error.
    func answered(_ result: Result<Void, LedgerError>)
}

/// The observer `serve` gives its engine: tells `report` when the ledger stops answering and
/// when it answers again (`LedgerHealth`), so the server logs an outage once, not once per
/// request, and the console shows whether the ledger answers.
public final class LedgerHealthWatch: LedgerObserver {
    private let health = Mutex(LedgerHealth())
    private let now: @Sendable () -> Int64
    private let report: @Sendable (LedgerHealth.Report) -> Void

    /// A watch whose `now` is a monotonic clock in milliseconds; `report` is called outside any
    /// lock, on the thread of the call that changed the state.
    public init(now: @escaping @Sendable () -> Int64, report: @escaping @Sendable (LedgerHealth.Report) -> Void) {
        self.now = now
        self.report = report
    }

    /// Whether an outage is under way.
    public var isInOutage: Bool { health.withLock { $0.outageStart != nil } }

    public func answered(_ result: Result<Void, LedgerError>) {
        let change = health.withLock { health in
            switch result {
            case .success: health.succeeded(at: now())
            case .failure(let error): health.failed(error, at: now())
            }
        }
        if let change { report(change) }
    }
}

extension Optional where Wrapped == any LedgerObserver {
    /// Runs `call`, telling the observer (if any) how it went.
    public func watching<T>(_ call: () async throws(LedgerError) -> T) async throws(LedgerError) -> T {
        do throws(LedgerError) {
            let value = try await call()
            self?.answered(.success(()))
            return value
        } catch {
            self?.answered(.failure(error))
            throw error
        }
    }
}
