import Glibc
@testable import SharedAsync
import Testing

/// The one pool for blocking work: its threads run the work, first come first served, never
/// more at once than it has threads; errors stay typed; a cancelled task's queued work never
/// runs; shutdown finishes the queue, joins the threads and refuses what comes after.
@Suite struct BlockingPoolTests {
    enum Failure: Error, Equatable { case boom, refused(String) }

    @Test func runsTheWorkOnAThreadOfItsOwnAndReturnsItsValue() async throws {
        let pool = try BlockingPool(threads: 2, name: "bp-value")
        let (value, thread) = try await pool.run { (21 * 2, currentThreadName()) }
        #expect(value == 42)
        #expect(thread.hasPrefix("bp-value-"))
        // Each thread names itself as it starts: the second may not have yet.
        try await waitUntil("both threads are named") { threadNames().filter { $0.hasPrefix("bp-value-") }.count == 2 }
        await pool.shutdown()
    }

    @Test func theOldestWorkRunsFirst() async throws {
        let pool = try BlockingPool(threads: 1, name: "bp-order")
        let gate = Gate(), begun = Locked(false), order = Locked<[Int]>([])
        let blocker = Task { try await pool.run { begun.withLock { $0 = true }; gate.pass() } }
        try await waitUntil("the thread is busy") { begun.value }
        var callers: [Task<Void, any Error>] = []
        for index in 0..<100 {
            callers.append(Task { try await pool.run { order.withLock { $0.append(index) } } })
            // Each queued before the next is made: the queue's order is the order of the calls.
            try await waitUntil("work \(index) is queued") { pool.queued == index + 1 }
        }
        gate.open()
        try await blocker.value
        for caller in callers { try await caller.value }
        #expect(order.value == Array(0..<100))
        await pool.shutdown()
    }

    @Test func neverMoreWorkAtOnceThanThreads() async throws {
        let pool = try BlockingPool(threads: 3, name: "bp-bound")
        let gate = Gate(), running = Locked(0), most = Locked(0), done = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await pool.run {
                        running.withLock { now in
                            now += 1
                            most.withLock { $0 = max($0, now) }
                        }
                        gate.pass()
                        running.withLock { $0 -= 1 }
                        done.withLock { $0 += 1 }
                    }
                }
            }
            // Three run and wait at the gate; the other 47 wait in the queue, not beside them.
            try await waitUntil("three works run and the rest are queued") { running.value == 3 && pool.queued == 47 }
            gate.open()
            try await group.waitForAll()
        }
        #expect(most.value == 3)
        #expect(done.value == 50)
        await pool.shutdown()
    }

    @Test func theWorksErrorStaysTyped() async throws {
        let pool = try BlockingPool(threads: 1, name: "bp-typed")
        await #expect(throws: BlockingPoolError<Failure>.failed(.boom)) {
            try await pool.run { () throws(Failure) in throw Failure.boom }
        }
        // The second form throws the work's own type, a refusal turned into it.
        do throws(Failure) {
            _ = try await pool.run({ () throws(Failure) -> Int in throw .boom }, refused: { .refused("\($0)") })
            Issue.record("no error thrown")
        } catch {
            #expect(error == .boom)
        }
        await pool.shutdown()
        do throws(Failure) {
            _ = try await pool.run({ () throws(Failure) -> Int in 1 }, refused: { .refused("\($0)") })
            Issue.record("a closed pool ran work")
        } catch {
            #expect(error == .refused("the blocking pool is shut down"))
        }
    }

    @Test func shutdownFinishesTheQueueJoinsTheThreadsAndRefusesWhatComesAfter() async throws {
        let pool = try BlockingPool(threads: 2, name: "bp-shutdown")
        let gate = Gate(), ran = Locked(0)
        let callers = (0..<10).map { _ in
            Task { try await pool.run { gate.pass(); ran.withLock { $0 += 1 } } }
        }
        try await waitUntil("two run and eight are queued") { pool.queued == 8 }
        let shutdown = Task { await pool.shutdown() }
        // Once closed, new work is refused at once, though the queue has not drained.
        try await Self.waitUntilRefused(pool)
        #expect(ran.value == 0)
        gate.open()
        await shutdown.value
        for caller in callers { try await caller.value }
        #expect(ran.value == 10)
        // All but the last thread out were joined; the last detached itself and is returning.
        #expect(threadNames().filter { $0.hasPrefix("bp-shutdown") }.count <= 1)
        try await waitUntil("the last thread is gone") { threadNames().filter { $0.hasPrefix("bp-shutdown") }.isEmpty }
        let touched = Locked(false)
        await #expect(throws: BlockingPoolError<Never>.closed) { try await pool.run { touched.withLock { $0 = true } } }
        #expect(!touched.value)
        await pool.shutdown()  // again: harmless, returns at once
    }

    /// Waits until `pool` refuses work: a probe each millisecond, cancelled (so taken out of
    /// the queue unrun) when the pool still took it.
    private static func waitUntilRefused(_ pool: BlockingPool) async throws {
        for _ in 0..<60_000 {
            let probe = Task { try await pool.run { Issue.record("a probe ran") } }
            try await Task.sleep(for: .milliseconds(1))
            probe.cancel()
            if case .failure(let error) = await probe.result, error as? BlockingPoolError<Never> == .closed { return }
        }
        throw Timeout(what: "the pool refuses work")
    }

    @Test func aCancelledTasksQueuedWorkNeverRuns() async throws {
        let pool = try BlockingPool(threads: 1, name: "bp-cancel")
        let gate = Gate(), begun = Locked(false), touched = Locked(false)
        let blocker = Task { try await pool.run { begun.withLock { $0 = true }; gate.pass() } }
        try await waitUntil("the thread is busy") { begun.value }
        let queued = Task { try await pool.run { touched.withLock { $0 = true } } }
        try await waitUntil("the work is queued") { pool.queued == 1 }
        queued.cancel()
        await #expect(throws: BlockingPoolError<Never>.cancelled) { try await queued.value }
        #expect(pool.queued == 0)
        gate.open()
        try await blocker.value
        await pool.shutdown()
        #expect(!touched.value)
    }

    @Test func aTaskCancelledBeforeItAsksIsRefusedAndBegunWorkFinishes() async throws {
        let pool = try BlockingPool(threads: 1, name: "bp-cancel2")
        let touched = Locked(false)
        let cancelled = Task {
            withUnsafeCurrentTask { $0!.cancel() }
            try await pool.run { touched.withLock { $0 = true } }
        }
        await #expect(throws: BlockingPoolError<Never>.cancelled) { try await cancelled.value }
        #expect(!touched.value)
        // Work that has begun is not stopped: its value comes back though the task was cancelled.
        let gate = Gate(), begun = Locked(false)
        let caller = Task { try await pool.run { begun.withLock { $0 = true }; gate.pass(); return 7 } }
        try await waitUntil("the work has begun") { begun.value }
        caller.cancel()
        gate.open()
        #expect(try await caller.value == 7)
        await pool.shutdown()
    }

    @Test func thousandsOfCallersAtOnce() async throws {
        let pool = try BlockingPool(threads: 4, name: "bp-many")
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<5000 {
                group.addTask { try await pool.run { index * 2 } }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == 4999 * 5000)
        #expect(pool.queued == 0)
        await pool.shutdown()
    }

    @Test func aDroppedPoolsThreadsEnd() async throws {
        do {
            let pool = try BlockingPool(threads: 2, name: "bp-dropped")
            #expect(try await pool.run { 1 } == 1)
        }
        try await waitUntil("the dropped pool's threads ended") { threadNames().filter { $0.hasPrefix("bp-dropped") }.isEmpty }
    }
}
