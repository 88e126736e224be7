import SharedDomain

/// A long-running part of a command (an HTTP listener, a scheduler, a database's writer) that
/// is stopped gracefully: it finishes the work under way, within a deadline. The synchronous
/// model `serve` uses until the server moves onto `Service` and `ServiceGroup` (async, issue
/// 38); the server's targets still say `Service` for this one, through a typealias of their
/// own (ServerHTTP's and qrcheckin-server's `LegacyServiceNames.swift`), removed by the move.
public protocol LegacyService: Sendable {
    /// Its name in the logs (`HTTP listener`).
    var name: String { get }
    /// Stops, finishing the work under way, and returns by `deadline` (a `MonotonicClock` time)
    /// at the latest, whatever is left then.
    func stop(by deadline: WallTime)
}

/// The one owner of a long-running command's services (swift-service-lifecycle's
/// `ServiceGroup`, without async; `ServiceGroup` is the async one that replaces it): they are added as they start and, when the command is asked
/// to stop (a signal), stop in the reverse order, so what depends on a service stops before it
/// (the listener before the ledger it writes to), all within one grace period. No polling:
/// each service waits for its own work.
public final class LegacyServiceGroup: @unchecked Sendable {
    /// Services in the order they started (used by the calling thread only).
    private var services: [any LegacyService] = []
    private let graceMilliseconds: Int64
    private let clock: any WallClock

    /// A group whose services get `graceSeconds` in all to stop, counted on `clock`.
    public init(graceSeconds: Int64, clock: any WallClock = MonotonicClock()) {
        self.graceMilliseconds = graceSeconds * 1000
        self.clock = clock
    }

    /// Adds a service that has started: it stops before every service added earlier.
    public func add(_ service: any LegacyService) {
        services.append(service)
    }

    /// Stops every service, the last added first, within the grace period; returns their names.
    @discardableResult
    public func stop() -> [String] {
        let deadline = WallTime(milliseconds: clock.now().milliseconds + graceMilliseconds)
        let stopping = services.reversed()
        services = []
        for service in stopping { service.stop(by: deadline) }
        return stopping.map(\.name)
    }
}
