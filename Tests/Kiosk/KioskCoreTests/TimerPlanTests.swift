import KioskCore
import SharedDomain
import Testing

/// The timer plan alone: the earliest of the window boundary, the watchdog's half interval,
/// the 1 s retry, the socket's rebind and the metrics write; armed again only when that moves.
@Suite struct TimerPlanTests {
    let now = WallTime(milliseconds: 1_800_000_003_250)
    let boundary = WallTime(seconds: 1_800_000_015)

    @Test func theBoundaryAloneWhenNothingElseWakes() {
        #expect(TimerPlan().next(TimerPlan.Wakes(boundary: boundary), at: now) == boundary)
    }

    @Test func theWatchdogWakesHalfItsIntervalAfterTheLastPingOrNow() {
        var plan = TimerPlan()
        let wakes = TimerPlan.Wakes(boundary: boundary, watchdogMilliseconds: 6000)
        #expect(plan.next(wakes, at: now) == WallTime(milliseconds: now.milliseconds + 3000), "never pinged: from now")
        plan.started(at: WallTime(seconds: 1_800_000_000))
        #expect(plan.next(wakes, at: now) == WallTime(seconds: 1_800_000_003), "from the start, even when that is past")
        #expect(plan.next(TimerPlan.Wakes(boundary: boundary, watchdogMilliseconds: 1), at: now) == WallTime(milliseconds: 1_800_000_000_001),
                "at least a millisecond")
        #expect(plan.next(TimerPlan.Wakes(boundary: boundary, watchdogMilliseconds: 0), at: now) == boundary, "no interval, no watchdog")
        #expect(plan.next(TimerPlan.Wakes(boundary: boundary, watchdogMilliseconds: 60_000), at: now) == boundary, "the boundary comes first")
    }

    @Test func aRetryWakesAtTheNextWholeSecond() {
        let wakes = TimerPlan.Wakes(boundary: boundary, retrying: true)
        #expect(TimerPlan().next(wakes, at: now) == WallTime(seconds: 1_800_000_004))
        #expect(TimerPlan().next(wakes, at: WallTime(milliseconds: 1_800_000_014_500)) == boundary, "the boundary is sooner")
    }

    @Test func theSocketsRebindWakesWhenDueButNeverBeforeTheNextSecond() {
        let later = TimerPlan.Wakes(boundary: boundary, socketRebind: WallTime(seconds: 1_800_000_008))
        #expect(TimerPlan().next(later, at: now) == WallTime(seconds: 1_800_000_008))
        let overdue = TimerPlan.Wakes(boundary: boundary, socketRebind: WallTime(seconds: 1_800_000_001))
        #expect(TimerPlan().next(overdue, at: now) == WallTime(seconds: 1_800_000_004))
    }

    @Test func waitingMetricsWakeWhenTheyMayBeWritten() {
        let wakes = TimerPlan.Wakes(boundary: boundary, metricsWrite: WallTime(milliseconds: 1_800_000_003_900))
        #expect(TimerPlan().next(wakes, at: now) == WallTime(milliseconds: 1_800_000_003_900))
    }

    @Test func theEarliestOfAllWins() {
        var plan = TimerPlan()
        plan.started(at: WallTime(seconds: 1_800_000_000))
        let all = TimerPlan.Wakes(boundary: boundary, watchdogMilliseconds: 9000, retrying: true,
                                  socketRebind: WallTime(seconds: 1_800_000_006), metricsWrite: WallTime(milliseconds: 1_800_000_005_000))
        #expect(plan.next(all, at: now) == WallTime(seconds: 1_800_000_004), "the retry")
        var noRetry = all
        noRetry.retrying = false
        #expect(plan.next(noRetry, at: now) == WallTime(milliseconds: 1_800_000_004_500), "the watchdog")
        noRetry.watchdogMilliseconds = nil
        #expect(plan.next(noRetry, at: now) == WallTime(seconds: 1_800_000_005), "the metrics")
        noRetry.metricsWrite = nil
        #expect(plan.next(noRetry, at: now) == WallTime(seconds: 1_800_000_006), "the socket")
    }

    @Test func theTimerIsArmedAgainOnlyWhenItsTimeMoves() {
        var plan = TimerPlan()
        let wakes = TimerPlan.Wakes(boundary: boundary)
        #expect(plan.arm(wakes, at: now) == boundary)
        #expect(plan.armed == boundary)
        #expect(plan.arm(wakes, at: now) == nil, "armed for that time already")
        #expect(plan.arm(TimerPlan.Wakes(boundary: boundary, retrying: true), at: now) == WallTime(seconds: 1_800_000_004))
        plan.fired()
        #expect(plan.armed == nil)
        #expect(plan.arm(TimerPlan.Wakes(boundary: boundary, retrying: true), at: now) == WallTime(seconds: 1_800_000_004),
                "a fired timer is armed again for the same time")
        plan.disarm()
        #expect(plan.armed == nil)
    }

    @Test func aTickMakesOnePingDueWhichGoesOutOnlyUnderAWatchdog() {
        var plan = TimerPlan()
        plan.started(at: WallTime(seconds: 1_800_000_000))
        let beforeATick = plan.takePing(at: now, watchdog: true)
        #expect(!beforeATick)
        plan.fired()
        #expect(plan.pingDue)
        let withoutAWatchdog = plan.takePing(at: now, watchdog: false)
        #expect(!withoutAWatchdog && !plan.pingDue, "nothing to ping, and the due ping is spent")
        #expect(plan.lastPing == WallTime(seconds: 1_800_000_000))
        plan.fired()
        let pinged = plan.takePing(at: now, watchdog: true)
        #expect(pinged && plan.lastPing == now)
        let again = plan.takePing(at: now, watchdog: true)
        #expect(!again, "one ping a tick")
    }
}
