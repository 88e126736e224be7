import SharedAsync
import Testing

/// Outside a `ServiceGroup` nobody asks for a graceful shutdown: the handler is never called,
/// `gracefulShutdown()` waits until the task is cancelled, and cancellation stays cancellation.
@Suite struct GracefulShutdownTests {
    @Test func outsideAGroupTheHandlerIsNeverCalled() async {
        let called = Locked(false)
        let value = await withGracefulShutdownHandler { 7 } onGracefulShutdown: { called.withLock { $0 = true } }
        #expect(value == 7)
        #expect(!called.value)
        #expect(!isShuttingDownGracefully)
    }

    @Test func outsideAGroupGracefulShutdownWaitsUntilCancelled() async throws {
        let waiting = Locked(false)
        let task = Task {
            waiting.withLock { $0 = true }
            try await gracefulShutdown()
        }
        try await waitUntil("the task waits") { waiting.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func theHandlerIsCalledWhenTheServiceIsAskedAndAtOnceAfter() async throws {
        struct Watcher: Service {
            let name = "watcher"
            let calls: Locked<[String]>
            func run() async throws {
                await withGracefulShutdownHandler {
                    try? await gracefulShutdown()
                } onGracefulShutdown: {
                    calls.withLock { $0.append("during") }
                }
                // Registered after the request: called at once, before the operation runs.
                await withGracefulShutdownHandler {
                    calls.withLock { $0.append("operation") }
                } onGracefulShutdown: {
                    calls.withLock { $0.append("after") }
                }
            }
        }
        let calls = Locked<[String]>([])
        let group = ServiceGroup(services: [Watcher(calls: calls)], gracePeriod: .seconds(60))
        group.triggerGracefulShutdown()
        let report = await group.run()
        #expect(calls.value == ["during", "after", "operation"])
        #expect(report.isClean)
    }
}
