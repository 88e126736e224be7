@testable import SharedAsync
import SharedTesting
import Testing

/// Work under way, counted: `drained()` waits without a thread for the last `leave`, returns at
/// once when nothing is under way, and gives up when its task is cancelled or its time is up.
@Suite struct InFlightTests {
    @Test func drainedReturnsAtOnceWhenNothingIsUnderWay() async {
        await InFlight().drained()
    }

    @Test func drainedWaitsForTheLastLeave() async throws {
        let work = InFlight()
        work.enter()
        work.enter()
        let waiter = Task { await work.drained() }
        work.leave()
        try await waitUntil("one is left") { work.count == 1 }
        work.leave()
        await waiter.value
        #expect(work.count == 0)
    }

    @Test func aCancelledWaitReturnsWithWorkLeft() async {
        let work = InFlight()
        work.enter()
        let waiter = Task { await work.drained() }
        waiter.cancel()
        await waiter.value
        #expect(work.count == 1)
        work.leave()
    }

    @Test func aWaitWithinALimitEndsAtTheLimitOnTheClock() async throws {
        let work = InFlight(), clock = TestClock()
        work.enter()
        let waiter = Task { await work.drained(within: .seconds(15), on: clock) }
        try await waitUntil("the wait sleeps on the clock") { clock.sleepers == 1 }
        clock.advance(by: .seconds(15))
        #expect(await waiter.value == false)
        work.leave()
        #expect(await work.drained(within: .seconds(15), on: clock))
    }
}

/// `execute` runs work without a waiting task, in the queue's order, and refuses it once the
/// pool is shut down.
@Suite struct BlockingPoolExecuteTests {
    @Test func executedWorkRunsOnAPoolThreadInOrder() async throws {
        let pool = try BlockingPool(threads: 1, name: "bp-execute")
        let order = Locked<[Int]>([])
        for index in 0..<10 { #expect(pool.execute { order.withLock { $0.append(index) } }) }
        try await pool.run { order.withLock { $0.append(10) } }
        #expect(order.value == Array(0...10))
        await pool.shutdown()
        #expect(!pool.execute { order.withLock { $0.append(11) } })
        #expect(order.value == Array(0...10))
    }
}
