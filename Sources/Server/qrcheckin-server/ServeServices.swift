import ServerDomain
import ServerWebhooks
import SharedAsync
import SharedCLI
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

/// The webhooks' delivery (issue 40) as a service of `serve`: runs on a task of its own;
/// stopping cancels it and waits for the batch under way to record its results.
final class WebhookDeliveryService: Service {
    let name = "webhooks"
    private let task: Task<Void, Never>
    private let ended = Rendezvous<Void>()

    /// Starts `delivery` now.
    init(_ delivery: WebhookDelivery) {
        let ended = ended
        task = Task.detached {
            await delivery.run()
            ended.put(())
        }
    }

    func stop(by deadline: WallTime) {
        task.cancel()
        _ = ended.take(waitingAtMost: deadline.milliseconds - MonotonicClock().now().milliseconds)
    }
}

/// The webhooks' one thread for libcurl's waits (a batch at a time).
func webhookPool() throws(CommandError) -> BlockingPool {
    do {
        return try BlockingPool(threads: 1, name: "webhooks")
    } catch {
        throw CommandError(.software, "cannot start the webhooks' thread: \(error)")
    }
}
