import SharedSystem
import Synchronization

/// The one owner of a program's long-running services (swift-service-lifecycle's
/// `ServiceGroup`). `run()` starts them in order, each a child task, and waits. On a graceful
/// shutdown signal (or `triggerGracefulShutdown()`) it stops them in **reverse** order, so what
/// depends on a service stops before it (the listener before the ledger it writes to): the last
/// is asked to stop (its task-local `gracefulShutdown()` returns) and waited for, then the one
/// before it, all within one grace period counted from the signal on the injected clock. At the
/// deadline what is left is cancelled. A second signal during the shutdown cancels what is
/// left at once (an operator's second Ctrl-C).
///
/// A service whose `run()` returns or throws before anyone asked it to stop ends the group:
/// the others are stopped gracefully as on a signal, and the report's reason names it. A
/// long-running service is not supposed to end: one that did has failed (a listener whose
/// socket died, a writer whose database went away), and a server missing a part must not go
/// on looking healthy; systemd restarts it.
///
/// Nothing here blocks a thread: the services, the signals and the deadline are child tasks.
public final class ServiceGroup: Sendable {
    /// The services, in the order they start.
    public let services: [any Service]
    private let gracePeriod: Duration
    private let clock: any Clock<Duration>
    private let gracefulSignals: Set<UnixSignal>
    private let logger: Logger?
    /// Iterates the signal sequence, calling the argument for each signal; ends when the
    /// sequence does or the task is cancelled.
    private let listen: @Sendable (@Sendable (UnixSignal) -> Void) async -> Void
    private let control = Mutex(Control())

    /// A group of `services` that stops on `signals` among `gracefulShutdownSignals`, within
    /// `gracePeriod` on `clock`. `signals` is any sequence: a `SignalSequence` in a program, an
    /// `AsyncStream` a test feeds; its iteration must end when its task is cancelled (both do).
    public init<Signals: AsyncSequence & Sendable>(
        services: [any Service], signals: Signals, gracefulShutdownSignals: Set<UnixSignal> = [.terminate, .interrupt],
        gracePeriod: Duration, clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil
    ) where Signals.Element == UnixSignal, Signals.Failure == Never {
        self.services = services
        self.gracePeriod = gracePeriod
        self.clock = clock
        self.gracefulSignals = gracefulShutdownSignals
        self.logger = logger
        listen = { deliver in
            for await signal in signals { deliver(signal) }
        }
    }

    /// A group that no signal stops: only `triggerGracefulShutdown()` or a service's end.
    public convenience init(services: [any Service], gracePeriod: Duration, clock: any Clock<Duration> = ContinuousClock(), logger: Logger? = nil) {
        self.init(services: services, signals: AsyncStream<UnixSignal> { $0.finish() }, gracefulShutdownSignals: [],
                  gracePeriod: gracePeriod, clock: clock, logger: logger)
    }

    /// Starts the graceful shutdown as a signal would (from any thread, before or during `run`).
    public func triggerGracefulShutdown() {
        let events = control.withLock { control in
            control.requested = true
            return control.events
        }
        events?.yield(.requested)
    }

    /// Runs the services until they have all ended (see the type's comment), and says how.
    /// Call it once.
    public func run() async -> ServiceGroupReport {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let requested = control.withLock { control in
            precondition(control.events == nil, "a ServiceGroup runs once")
            control.events = sink
            return control.requested
        }
        defer { control.withLock { $0.events = nil } }
        let signals = services.map { _ in GracefulShutdownSignal() }
        let run = RunRecord(count: services.count)
        return await withTaskGroup(of: Void.self) { group in
            for (index, service) in services.enumerated() {
                group.addTask {
                    var thrown: (any Error)?
                    do {
                        try await GracefulShutdownSignal.$current.withValue(signals[index]) { try await service.run() }
                    } catch {
                        thrown = error
                    }
                    // Cancelled (at the deadline, a second signal, or with the task running the
                    // group) or else, by where the group was when it ended: early or in time.
                    let cancelled = Task.isCancelled
                    let kind = run.withLock { $0.end(index, name: service.name, error: thrown, cancelled: cancelled) }
                    sink.yield(.ended(index, kind, thrown))
                }
            }
            group.addTask { [listen] in await listen { sink.yield(.signal($0)) } }
            if requested { sink.yield(.requested) }

            var next = services.count - 1  // the next to ask to stop, walking down
            func askNext() {
                while next >= 0, run.withLock({ $0.hasEnded(next) }) { next -= 1 }
                guard next >= 0 else { return }
                logger?.info("stopping \(services[next].name)")
                signals[next].trigger()
            }
            func beginShutdown(_ reason: ServiceGroupReport.Reason) {
                guard run.withLock({ $0.beginShutdown(reason) }) else { return }
                logger?.notice("stopping (\(reason)): " + services.reversed().map(\.name).joined(separator: ", "))
                group.addTask { [clock, gracePeriod] in
                    do {
                        try await Self.sleep(on: clock, for: gracePeriod)
                        sink.yield(.deadline)
                    } catch {}  // cancelled: everything ended in time
                }
                askNext()
            }
            func cancelTheRest(_ why: String) {
                let left = run.withLock { $0.cancelTheRest() }
                guard !left.isEmpty else { return }
                logger?.warning("\(why): cancelling " + left.map { services[$0].name }.joined(separator: ", "))
                group.cancelAll()
            }

            for await event in events {
                switch event {
                case .signal(let signal):
                    guard gracefulSignals.contains(signal) else { continue }
                    if run.withLock({ $0.isShuttingDown }) {
                        cancelTheRest("\(signal) again")
                    } else {
                        beginShutdown(.signal(signal))
                    }
                case .requested:
                    beginShutdown(.requested)
                case .ended(let index, let kind, let error):
                    if kind == .early {
                        logger?.error("\(services[index].name) ended before it was asked to stop" + (error.map { ": \($0)" } ?? ""))
                        beginShutdown(.serviceEnded(services[index].name))
                    } else if index == next {
                        askNext()
                    }
                case .deadline:
                    cancelTheRest("not stopped within \(gracePeriod)")
                }
                if run.withLock({ $0.allEnded }) { break }
            }
            // Also reached when the task running the group is cancelled (the stream then ends):
            // the children were cancelled with it; wait for them and say so.
            if !run.withLock({ $0.allEnded }) {
                _ = run.withLock { state in
                    _ = state.beginShutdown(.cancelled)
                    return state.cancelTheRest()
                }
            }
            group.cancelAll()  // the signal listener and the deadline
            await group.waitForAll()
            sink.finish()
            return run.withLock { $0.report() }
        }
    }

    /// Sleeps `duration` on `clock` (opened from the existential).
    private static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }

    /// What the run loop reacts to.
    private enum Event: Sendable {
        case signal(UnixSignal)
        case requested
        case ended(Int, ServiceGroupReport.Ending.Kind, (any Error)?)
        case deadline
    }

    /// What can reach a group from outside its run: a request to stop.
    private struct Control {
        var requested = false
        var events: AsyncStream<Event>.Continuation?
    }
}

/// `RunState` under a lock, shared by the services' tasks and the run loop.
private final class RunRecord: Sendable {
    private let state: Mutex<RunState>

    init(count: Int) {
        state = Mutex(RunState(count: count))
    }

    func withLock<Result: Sendable>(_ body: (inout RunState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}

/// Where a group's run is, and how each service ended.
private struct RunState {
    enum Phase { case running, stopping, cancelling }

    var phase = Phase.running
    var reason: ServiceGroupReport.Reason?
    var ended: [Bool]
    var endings: [ServiceGroupReport.Ending] = []
    var endedCount = 0

    init(count: Int) {
        ended = Array(repeating: false, count: count)
    }

    var isShuttingDown: Bool { phase != .running }
    var allEnded: Bool { endedCount == ended.count && phase != .running }

    func hasEnded(_ index: Int) -> Bool { ended[index] }

    /// Records that service `index` ended: cancelled if its task was, else early or in time
    /// by the phase now.
    mutating func end(_ index: Int, name: String, error: (any Error)?, cancelled: Bool) -> ServiceGroupReport.Ending.Kind {
        let kind: ServiceGroupReport.Ending.Kind = cancelled ? .cancelled : phase == .running ? .early : .stopped
        ended[index] = true
        endedCount += 1
        endings.append(.init(name: name, kind: kind, error: error))
        return kind
    }

    /// Enters the shutdown for `reason`; false when it had begun already.
    mutating func beginShutdown(_ reason: ServiceGroupReport.Reason) -> Bool {
        guard phase == .running else { return false }
        phase = .stopping
        self.reason = reason
        return true
    }

    /// Enters the cancelling phase; returns the services still running.
    mutating func cancelTheRest() -> [Int] {
        phase = .cancelling
        return ended.indices.filter { !ended[$0] }
    }

    func report() -> ServiceGroupReport {
        ServiceGroupReport(reason: reason ?? .cancelled, endings: endings)
    }
}
