import ServerDomain
import SharedDomain
import SharedSystem

/// The retention service's schedule as a service of `serve`: a purge at start, then daily, on a
/// task of its own; stopping cancels the task and waits for a purge under way to end.
final class RetentionSchedule: Service {
    let name = "retention"
    private let task: Task<Void, Never>
    private let ended = Rendezvous<Void>()

    /// Starts `retention`'s schedule now.
    init(_ retention: RetentionService) {
        let ended = ended
        task = Task.detached {
            try? await retention.run(sleep: { try await Task.sleep(for: $0) })
            ended.put(())
        }
    }

    func stop(by deadline: WallTime) {
        task.cancel()
        _ = ended.take(waitingAtMost: deadline.milliseconds - MonotonicClock().now().milliseconds)
    }
}

/// The ledger as a service of `serve`, stopped last: the writes under way (check-ins the
/// listener let finish, refusals) commit before the process exits.
struct LedgerWrites: Service {
    let name = "ledger"
    let ledger: any CheckInLedger

    func stop(by deadline: WallTime) {
        ledger.finishWrites()
    }
}

/// The automatic ends of visits (`max-stay`, `close-at`) as a service of `serve`: a pass at
/// start, then every minute, on a task of its own; stopping cancels it and waits for a pass.
final class PresenceSchedule: Service {
    let name = "presence"
    private let task: Task<Void, Never>
    private let ended = Rendezvous<Void>()

    /// Starts `closer`'s passes now.
    init(_ closer: PresenceCloser) {
        let ended = ended
        task = Task.detached {
            try? await closer.run(sleep: { try await Task.sleep(for: $0) })
            ended.put(())
        }
    }

    func stop(by deadline: WallTime) {
        task.cancel()
        _ = ended.take(waitingAtMost: deadline.milliseconds - MonotonicClock().now().milliseconds)
    }
}

/// The kiosks' reports as a service of `serve`: the beacon that wakes held reports on steers
/// given elsewhere (another server of the database, `kiosks set`), and, stopped before the
/// listener drains, the bell that answers every held report at once (a held report must not
/// keep a stopping server waiting).
final class KioskReportService: Service {
    let name = "kiosk-reports"
    private let bell: SteerBell
    private let task: Task<Void, Never>

    /// Starts `beacon`'s looks now (once a second).
    init(bell: SteerBell, beacon: SteerBeacon) {
        self.bell = bell
        task = Task.detached { await beacon.run(every: .seconds(1), clock: ContinuousClock()) }
    }

    func stop(by deadline: WallTime) {
        bell.close()
        task.cancel()
    }
}
