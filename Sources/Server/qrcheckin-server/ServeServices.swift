import ServerDomain
import ServerWebhooks
import SharedAsync
import SharedCLI
import SharedDomain
import SharedSystem

/// The retention service's schedule as a service of `serve`: a purge at start, then daily, on
/// `clock`. Asked to stop, it cancels its sleep, never a purge under way (which the group's
/// deadline bounds: a purge stops between two batches when cancelled).
struct RetentionSchedule: Service {
    let name = "retention"
    let retention: RetentionService
    let clock: any Clock<Duration>

    func run() async throws {
        try? await retention.run(sleep: { [clock] duration in try await sleepUntilStopped(for: duration, on: clock) })
    }
}

/// The automatic ends of visits (`max-stay`, `close-at`) as a service of `serve`: a pass at
/// start, then every minute, on `clock`; stopping cancels the sleep, never a pass under way.
struct PresenceSchedule: Service {
    let name = "presence"
    let closer: PresenceCloser
    let clock: any Clock<Duration>

    func run() async throws {
        try? await closer.run(sleep: { [clock] duration in try await sleepUntilStopped(for: duration, on: clock) })
    }
}

/// The webhooks' delivery (issue 40) as a service of `serve`: batches while events are due,
/// else a pause on `clock`. Asked to stop, it finishes the batch under way (its results are
/// recorded) and returns; an unfinished claim's lease lets another server, or the restart, send it.
struct WebhookDeliveryService: Service {
    let name = "webhooks"
    let delivery: WebhookDelivery
    let clock: any Clock<Duration>

    func run() async throws {
        await delivery.run(sleep: { [clock] duration in try await sleepUntilStopped(for: duration, on: clock) },
                           stopping: { isShuttingDownGracefully })
    }
}

/// A listener under a name of its own in the group's report and logs (`console listener`).
struct NamedService: Service {
    let name: String
    let service: any Service

    func run() async throws {
        try await service.run()
    }
}

/// Tells systemd the server is stopping (`STOPPING=1`) as the stop begins: the last of the
/// group's services, so the first asked to stop.
struct StoppingNotice: Service {
    let name = "systemd notice"
    let notifier: SystemdNotifier

    func run() async throws {
        try? await gracefulShutdown()
        notifier.notify("STOPPING=1")
    }
}

/// Sleeps `duration` on `clock`, or until the service is asked to stop (then throws
/// `CancellationError`): a schedule's wait between two passes.
func sleepUntilStopped(for duration: Duration, on clock: any Clock<Duration>) async throws {
    try await cancelWhenGracefulShutdown { try await sleep(for: duration, on: clock) }
}

/// `clock.sleep(for:)` from the existential.
private func sleep<C: Clock>(for duration: Duration, on clock: C) async throws where C.Duration == Duration {
    try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}

/// The kiosks' reports as a service of `serve`: the beacon that wakes held reports on steers
/// given elsewhere (another server of the database, `kiosks set`), once a second on `clock`;
/// asked to stop (before the listeners, which come earlier in the group), it closes the bell,
/// which answers every held report at once: a held report never keeps a stopping server waiting.
struct KioskReportService: Service {
    let name = "kiosk reports"
    let bell: SteerBell
    let beacon: SteerBeacon
    let clock: any Clock<Duration>
    /// Looks at the fleet every 15 s: offline kiosks logged once, changes announced.
    let watch: KioskWatchLog

    func run() async throws {
        await withGracefulShutdownHandler {
            _ = try? await cancelWhenGracefulShutdown { [beacon, clock, watch] in
                async let looks: Void = beacon.run(every: .seconds(1), clock: clock)
                await watch.run(every: .seconds(15), clock: clock)
                await looks
            }
        } onGracefulShutdown: { [bell] in
            bell.close()
        }
    }
}

/// The fleet's look every `interval` (`KioskWatch`): a kiosk turning offline logged once at
/// warning (once at notice when it reports again); each change of a kiosk's light or problems
/// announced (the `kiosk` webhook event), at info.
struct KioskWatchLog: Sendable {
    let watch: KioskWatch
    let logger: Logger

    func run(every interval: Duration, clock sleeper: any Clock<Duration>) async {
        var memory = KioskWatch.Memory()
        while !Task.isCancelled {
            if let look = await watch.look(&memory) {
                for (key, silence) in look.turnedOffline.sorted(by: { $0.key < $1.key }) {
                    logger.warning("kiosk \(key) is offline: no report for \(silence) s")
                }
                for key in look.back { logger.notice("kiosk \(key) reports again") }
                // Each change of a few kiosks; a count when a whole fleet changes at once (a first
                // look, the server's network back): not ten thousand lines.
                if look.announced.count <= 10 {
                    for announcement in look.announced { logger.info("kiosk \(announcement) announced") }
                } else {
                    logger.info("\(look.announced.count) kiosks' changes announced (\(look.announced.prefix(3).map(\.description).joined(separator: ", ")), …)")
                }
                if look.failed > 0 { logger.warning("\(look.failed) kiosk announcement(s) not written: the ledger is unavailable; tried again at the next look") }
            }
            do {
                try await sleeper.sleep(for: interval)
            } catch {
                return
            }
        }
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
