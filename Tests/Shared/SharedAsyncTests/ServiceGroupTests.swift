import SharedAsync
import SharedTesting
import Testing

/// The group of services: started in order, stopped in reverse on a signal, each waited for
/// before the next, within one deadline on an injected clock (a test clock: seconds pass in
/// microseconds), what is left cancelled at it; a service that ends by itself ends the group.
@Suite struct ServiceGroupTests {
    struct Boom: Error, Equatable {}

    /// A service that writes what happens to it in `log` and, asked to stop, does `stopping`.
    struct Scripted: Service {
        let name: String
        let log: Locked<[String]>
        var stopping: @Sendable () async throws -> Void = {}

        func run() async throws {
            log.withLock { $0.append("\(name) runs") }
            try await gracefulShutdown()
            log.withLock { $0.append("\(name) asked") }
            try await stopping()
            log.withLock { $0.append("\(name) stopped") }
        }
    }

    /// A service that ends by itself when `end` opens, throwing `error` if given.
    struct EndsEarly: Service {
        let name: String
        let end: Latch
        var error: Boom?

        func run() async throws {
            await end.wait()
            if let error { throw error }
        }
    }

    /// Sleeps until cancelled: a service that ignores the request to stop.
    static let stuck: @Sendable () async throws -> Void = { try await Task.sleep(for: .seconds(86_400)) }

    static func group(_ services: [any Service], clock: TestClock = TestClock(), grace: Duration = .seconds(10))
        -> (ServiceGroup, AsyncStream<UnixSignal>.Continuation) {
        let (signals, send) = AsyncStream.makeStream(of: UnixSignal.self)
        return (ServiceGroup(services: services, signals: signals, gracePeriod: grace, clock: clock), send)
    }

    @Test func aSignalStopsTheServicesInReverseOrderEachWaitedForBeforeTheNext() async throws {
        let log = Locked<[String]>([]), release = Latch()
        let services: [any Service] = [
            Scripted(name: "ledger", log: log), Scripted(name: "retention", log: log, stopping: { await release.wait() }),
            Scripted(name: "listener", log: log),
        ]
        let (group, send) = Self.group(services)
        let running = Task { await group.run() }
        try await waitUntil("all three run") { log.value.filter { $0.hasSuffix("runs") }.count == 3 }
        send.yield(.terminate)
        try await waitUntil("retention is asked") { log.value.contains("retention asked") }
        // Retention takes its time: the ledger is not asked before it has stopped.
        #expect(!log.value.contains("ledger asked"))
        release.open()
        let report = await running.value
        #expect(log.value.filter { !$0.hasSuffix("runs") } == [
            "listener asked", "listener stopped", "retention asked", "retention stopped", "ledger asked", "ledger stopped",
        ])
        #expect(report.reason == .signal(.terminate))
        #expect(report.stopped == ["listener", "retention", "ledger"])
        #expect(report.cancelled.isEmpty)
        #expect(report.isClean)
    }

    @Test func atTheDeadlineWhatIsLeftIsCancelled() async throws {
        let log = Locked<[String]>([]), clock = TestClock()
        let services: [any Service] = [
            Scripted(name: "ledger", log: log), Scripted(name: "retention", log: log, stopping: Self.stuck),
            Scripted(name: "listener", log: log),
        ]
        let (group, send) = Self.group(services, clock: clock, grace: .seconds(10))
        let running = Task { await group.run() }
        try await waitUntil("all three run") { log.value.filter { $0.hasSuffix("runs") }.count == 3 }
        send.yield(.interrupt)
        try await waitUntil("retention is asked and the deadline set") { log.value.contains("retention asked") && clock.sleepers == 1 }
        clock.advance(by: .seconds(9))
        // Nine seconds in: the deadline is still ahead, nothing cancelled.
        #expect(clock.sleepers == 1)
        #expect(!log.value.contains("ledger asked"))
        clock.advance(by: .seconds(1))
        let report = await running.value
        #expect(report.reason == .signal(.interrupt))
        #expect(report.stopped == ["listener"])
        // The stuck one and the one never asked are both cancelled: their runs threw.
        #expect(Set(report.cancelled) == ["retention", "ledger"])
        #expect(report.endings.filter { $0.kind == .cancelled }.allSatisfy { $0.error is CancellationError })
        #expect(!report.isClean)
    }

    @Test func aServiceThatEndsByItselfStopsTheOthersAndIsNamed() async throws {
        let log = Locked<[String]>([]), end = Latch()
        let services: [any Service] = [
            Scripted(name: "ledger", log: log), EndsEarly(name: "writer", end: end, error: Boom()), Scripted(name: "listener", log: log),
        ]
        let (group, _) = Self.group(services)
        let running = Task { await group.run() }
        try await waitUntil("the others run") { log.value.count == 2 }
        end.open()
        let report = await running.value
        #expect(report.reason == .serviceEnded("writer"))
        #expect(report.endings.first?.name == "writer" && report.endings.first?.kind == .early)
        #expect(report.endings.first?.error as? Boom == Boom())
        #expect(report.stopped == ["listener", "ledger"])
        #expect(!report.isClean)
    }

    @Test func aServiceThatReturnsByItselfEndsTheGroupToo() async throws {
        let log = Locked<[String]>([]), end = Latch()
        let (group, _) = Self.group([Scripted(name: "ledger", log: log), EndsEarly(name: "schedule", end: end)])
        let running = Task { await group.run() }
        end.open()
        let report = await running.value
        #expect(report.reason == .serviceEnded("schedule"))
        #expect(report.stopped == ["ledger"])
        #expect(report.endings.first.map { $0.error == nil } == true)
    }

    @Test func aSecondSignalCancelsWhatIsLeftAtOnce() async throws {
        let log = Locked<[String]>([]), clock = TestClock()
        let services: [any Service] = [Scripted(name: "ledger", log: log), Scripted(name: "listener", log: log, stopping: Self.stuck)]
        let (group, send) = Self.group(services, clock: clock)
        let running = Task { await group.run() }
        try await waitUntil("both run") { log.value.count == 2 }
        send.yield(.terminate)
        try await waitUntil("the listener is asked") { log.value.contains("listener asked") }
        send.yield(.interrupt)
        let report = await running.value
        #expect(report.reason == .signal(.terminate))
        #expect(Set(report.cancelled) == ["listener", "ledger"])
        #expect(clock.now.offset == .zero)  // no time passed: it did not wait for the deadline
    }

    @Test func otherSignalsAreIgnoredAndARequestStopsTheGroupLikeASignal() async throws {
        let log = Locked<[String]>([])
        let (group, send) = Self.group([Scripted(name: "ledger", log: log)])
        let running = Task { await group.run() }
        try await waitUntil("it runs") { log.value.count == 1 }
        send.yield(.hangup)
        send.yield(.user1)
        group.triggerGracefulShutdown()
        let report = await running.value
        #expect(report.reason == .requested)
        #expect(report.stopped == ["ledger"])
        #expect(report.isClean)
    }

    @Test func aRequestBeforeTheRunStopsItAsSoonAsItStarts() async throws {
        let log = Locked<[String]>([])
        let group = ServiceGroup(services: [Scripted(name: "a", log: log), Scripted(name: "b", log: log)], gracePeriod: .seconds(1),
                                 clock: TestClock())
        group.triggerGracefulShutdown()
        let report = await group.run()
        #expect(report.reason == .requested)
        #expect(report.stopped == ["b", "a"])
    }

    @Test func cancellingTheRunningTaskCancelsEveryService() async throws {
        let log = Locked<[String]>([])
        let (group, _) = Self.group([Scripted(name: "a", log: log), Scripted(name: "b", log: log)])
        let running = Task { await group.run() }
        try await waitUntil("both run") { log.value.count == 2 }
        running.cancel()
        let report = await running.value
        #expect(report.reason == .cancelled)
        #expect(Set(report.cancelled) == ["a", "b"])
    }

    @Test func anEmptyGroupEndsOnItsSignal() async throws {
        let (group, send) = Self.group([])
        send.yield(.terminate)
        let report = await group.run()
        #expect(report.reason == .signal(.terminate))
        #expect(report.endings.isEmpty && report.isClean)
    }

    @Test func aScheduleCancelledOnShutdownStopsInTime() async throws {
        struct Schedule: Service {
            let name = "schedule"
            let naps: Locked<Int>
            func run() async throws {
                do {
                    try await cancelWhenGracefulShutdown {
                        while true {
                            naps.withLock { $0 += 1 }
                            try await Task.sleep(for: .seconds(3600))
                        }
                    }
                } catch is CancellationError where isShuttingDownGracefully {
                    return  // asked to stop between two passes: nothing to finish
                }
            }
        }
        let naps = Locked(0)
        let (group, send) = Self.group([Schedule(naps: naps)])
        let running = Task { await group.run() }
        try await waitUntil("the schedule naps") { naps.value == 1 }
        send.yield(.terminate)
        let report = await running.value
        #expect(report.stopped == ["schedule"])
        #expect(report.isClean)
    }
}
