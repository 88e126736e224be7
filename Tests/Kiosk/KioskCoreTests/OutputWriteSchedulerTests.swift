import KioskCore
import SharedDomain
import Testing

/// The write scheduling alone: a save before the write of a code it records, one save or
/// write in flight, full sets, health-only updates while outputs fail, metrics-only writes at
/// most once a second, and failures held until the next tick.
@Suite final class OutputWriteSchedulerTests {
    let start = WallTime(seconds: 1_800_000_000)
    var model = CheckInViewModel(issuer: FakeIssuer(period: .standard), settings: OperatorSettings(), now: WallTime(seconds: 1_800_000_000))
    var counters = DaemonCounters()

    var wanted: SavedState { SavedState(settings: model.state.settings, issued: model.record) }

    func write(_ scheduler: inout OutputWriteScheduler, forced: Bool = false, stopping: Bool = false, at now: WallTime? = nil)
        -> OutputWriteScheduler.Write? {
        scheduler.write(model, counters: counters, periodSeconds: 15, forced: forced, stopping: stopping, at: now ?? start)
    }

    /// A scheduler whose state file holds the model's record and whose files show its state.
    func written() -> OutputWriteScheduler {
        var scheduler = OutputWriteScheduler(persisted: wanted)
        _ = write(&scheduler)
        _ = scheduler.written(at: start)
        return scheduler
    }

    @Test func noCodeIsWrittenBeforeItsRecordIsSaved() {
        var scheduler = OutputWriteScheduler(persisted: nil)
        #expect(!scheduler.isRecorded(model.state, periodSeconds: 15))
        #expect(write(&scheduler) == nil)
        #expect(scheduler.save(wanted, stopping: false, forceWriteAfter: true) == wanted)
        #expect(!scheduler.isIdle, "one save in flight")
        #expect(scheduler.saved() == true, "the write after it is forced as the event asked")
        #expect(scheduler.persisted == wanted && scheduler.isIdle)
        #expect(scheduler.save(wanted, stopping: false, forceWriteAfter: false) == nil, "saved already")
        let full = write(&scheduler)
        #expect(full?.kind == .full && full?.files == OutputFile.all)
        #expect(full?.state.code == model.state.code)
        #expect(scheduler.saved() == nil, "no save awaited: a write is")
    }

    @Test func aFailedSaveIsHeldUntilARetryAndNoneStartsWhileStopping() {
        var scheduler = OutputWriteScheduler(persisted: nil)
        _ = scheduler.save(wanted, stopping: false, forceWriteAfter: false)
        #expect(scheduler.notSaved() == false)
        #expect(scheduler.isIdle && scheduler.persisted == nil)
        #expect(scheduler.save(wanted, stopping: false, forceWriteAfter: false) == nil, "held")
        scheduler.retrySave()
        #expect(scheduler.save(wanted, stopping: true, forceWriteAfter: false) == nil, "stopping")
        #expect(scheduler.save(wanted, stopping: false, forceWriteAfter: false) == wanted)
        #expect(scheduler.notSaved() == false)
        scheduler.retryHeld()
        #expect(scheduler.save(wanted, stopping: false, forceWriteAfter: false) == wanted, "a tick retries it too")
    }

    @Test func aFullSetIsWrittenWhenWhatItShowsChangesOrWhenForced() {
        var scheduler = written()
        #expect(scheduler.onDisk?.code == model.state.code)
        #expect(write(&scheduler, at: WallTime(milliseconds: start.milliseconds + 400)) == nil, "only the countdown moved")
        #expect(write(&scheduler, forced: true)?.kind == .full)
        _ = scheduler.written(at: start)
        _ = model.send(.shakeModeSet(.off), at: start)
        #expect(write(&scheduler)?.kind == .full, "the settings changed")
        #expect(scheduler.failed() == .full)
        scheduler.outputsGone()
        #expect(scheduler.onDisk == nil)
        #expect(write(&scheduler)?.kind == .full, "nothing is known to be on disk")
    }

    @Test func removedOutputsWaitHalfASecondUnlessTheDirectoryIsGoneOrTheDaemonStops() {
        var scheduler = written()
        scheduler.outputsRemoved(at: start)
        let settled = WallTime(milliseconds: start.milliseconds + OutputWriteScheduler.removalSettleMilliseconds)
        #expect(scheduler.onDisk == nil && scheduler.nextRewrite(at: start) == settled)
        #expect(write(&scheduler) == nil && write(&scheduler, forced: true) == nil, "rm -rf may still be at work")
        scheduler.retryHeld()
        #expect(write(&scheduler, at: WallTime(milliseconds: settled.milliseconds - 1)) == nil, "a tick does not end the wait")
        counters.refusals += 1
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == nil,
                "no wake for a metrics write that nothing on disk lets happen")
        #expect(write(&scheduler, forced: true, stopping: true)?.kind == .full, "the stopped state goes out at once")
        _ = scheduler.failed()
        #expect(scheduler.nextRewrite(at: start) == nil, "written, or tried: nothing waits")
        scheduler.outputsRemoved(at: start)
        #expect(scheduler.nextRewrite(at: WallTime(seconds: 1_799_996_400)) == nil, "a clock set back does not hold it off")
        let again = write(&scheduler, at: settled)
        #expect(again?.kind == .full && again?.files == OutputFile.all && again?.state == model.state, "the same state again")
        _ = scheduler.written(at: settled)
        #expect(scheduler.nextRewrite(at: settled) == nil)
        scheduler.outputsRemoved(at: start)
        scheduler.outputsGone()
        #expect(scheduler.nextRewrite(at: start) == nil, "the directory is gone: whoever removed it is done")
        #expect(write(&scheduler)?.kind == .full)
    }

    @Test func failingOutputsGetAHealthOnlyUpdateHeldUntilTheNextTickWhenItFails() {
        var scheduler = written()
        let soon = WallTime(milliseconds: start.milliseconds + 500)
        _ = model.send(.outputFailed(reason: "disk full"), at: soon)
        let update = write(&scheduler, at: soon)
        #expect(update?.kind == .healthOnly && update?.files == [.json])
        #expect(update?.state.health == model.state.health && update?.state.updatedAt == soon)
        #expect(update?.state.code == scheduler.onDisk?.code, "about the code still on disk")
        #expect(scheduler.failed() == .healthOnly)
        #expect(write(&scheduler, at: soon) == nil, "held, and metrics.prom was written less than a second ago")
        // The live health still goes out, in metrics.prom alone, once its second is over.
        let later = WallTime(seconds: 1_800_000_002)
        #expect(write(&scheduler, at: later)?.kind == .metricsOnly)
        _ = scheduler.written(at: later)
        #expect(write(&scheduler, stopping: true, at: later) == nil)
        scheduler.retryHeld()
        #expect(write(&scheduler, at: later)?.kind == .healthOnly)
        #expect(scheduler.written(at: later) == .healthOnly)
        #expect(scheduler.onDisk?.health == model.state.health)
        #expect(write(&scheduler, at: later) == nil, "both files say it already")
    }

    @Test func countersAloneRewriteMetricsAtMostOnceASecond() {
        var scheduler = written()
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == nil, "nothing changed")
        counters.refusals += 1
        let due = WallTime(milliseconds: start.milliseconds + 1000)
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == due)
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: true) == nil)
        #expect(write(&scheduler, at: WallTime(milliseconds: start.milliseconds + 999)) == nil, "not yet")
        let metrics = write(&scheduler, at: due)
        #expect(metrics?.kind == .metricsOnly && metrics?.files == [.metrics] && metrics?.state.updatedAt == due)
        #expect(scheduler.failed() == .metricsOnly)
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == nil, "held")
        scheduler.retryHeld()
        #expect(write(&scheduler, at: due)?.kind == .metricsOnly)
        let onDisk = scheduler.onDisk
        #expect(scheduler.written(at: due) == .metricsOnly)
        #expect(scheduler.onDisk == onDisk, "metrics.prom alone: the state on disk is as it was")
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == nil)
        counters.requests += 1
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == WallTime(milliseconds: due.milliseconds + 1000))
    }

    @Test func nothingWaitsForMetricsBeforeTheFirstSetIsWritten() {
        var scheduler = OutputWriteScheduler(persisted: wanted)
        counters.refusals += 1
        #expect(scheduler.nextMetricsWrite(counters: counters, health: .ok, stopping: false) == nil)
        #expect(scheduler.written(at: start) == nil && scheduler.failed() == nil, "no write awaited")
        #expect(write(&scheduler)?.kind == .full)
    }
}
