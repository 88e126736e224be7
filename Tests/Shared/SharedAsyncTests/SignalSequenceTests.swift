import Glibc
import SharedAsync
import SharedTesting
import Testing

/// glibc's tgkill(2) wrapper (2.30+), which Glibc's Swift module leaves out: a signal to one
/// thread. These tests cannot send a signal to the whole process: the test runner's main thread
/// does not block it, and would die of it.
@_silgen_name("tgkill") private func tgkill(_ process: Int32, _ thread: Int32, _ signal: Int32) -> Int32

/// Real signals through a signalfd, read by a thread of the sequence's own (named `signals`):
/// each signal arrives in the sequence, the reader ends with its consumer, and a
/// `ServiceGroup` stops on one. Serialized: each test finds the reader by its name.
@Suite(.serialized) struct SignalSequenceTests {
    /// Sends `signal` to the sequence's reader thread (there must be exactly one).
    static func send(_ signal: UnixSignal) throws {
        let readers = threads().filter { $0.name == "signals" }
        try #require(readers.count == 1)
        #expect(tgkill(getpid(), readers[0].id, signal.rawValue) == 0)
    }

    @Test func eachSignalArrivesInTheSequenceAndTheReaderEndsWithItsConsumer() async throws {
        let received = Locked<[UnixSignal]>([])
        let consumer = Task {
            let signals = try SignalSequence([.user1, .user2])
            for await signal in signals { received.withLock { $0.append(signal) } }
        }
        try await waitUntil("the reader runs") { threadNames().contains("signals") }
        try Self.send(.user2)
        try await waitUntil("SIGUSR2 arrives") { received.value == [.user2] }
        try Self.send(.user1)
        try await waitUntil("SIGUSR1 arrives") { received.value == [.user2, .user1] }
        consumer.cancel()
        try await consumer.value
        try await waitUntil("the reader ended") { !threadNames().contains("signals") }
    }

    @Test func aGroupStopsOnARealSignal() async throws {
        struct Waiter: Service {
            let name = "waiter"
            func run() async throws { try await gracefulShutdown() }
        }
        let group = ServiceGroup(services: [Waiter()], signals: try SignalSequence([.user1]), gracefulShutdownSignals: [.user1],
                                 gracePeriod: .seconds(10), clock: TestClock())
        let running = Task { await group.run() }
        try await waitUntil("the reader runs") { threadNames().contains("signals") }
        try Self.send(.user1)
        let report = await running.value
        #expect(report.reason == .signal(.user1))
        #expect(report.stopped == ["waiter"])
        try await waitUntil("the reader ended") { !threadNames().contains("signals") }
    }
}
