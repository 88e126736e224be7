import ServerDomain
import SharedAsync
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
