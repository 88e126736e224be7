import KioskCore
import SharedDomain
import SharedJSON
import Testing

/// Issue 25's decisions: a code's record is saved before the code is published, a state that
/// cannot be saved pauses codes, no `(window, seq)` repeats across restarts, and replies say
/// what the files on disk show.
@Suite struct DaemonCoreIntegrityTests {
    func parse(_ reply: String?) -> JSONValue { (try? JSONParser.parse(reply ?? "")) ?? .null }

    /// A daemon started again from what `earlier` saved, at `seconds`.
    func restart(_ earlier: TestShell, at seconds: Int64) -> TestShell {
        let shell = TestShell(saved: earlier.memoryStore.state.map(SavedSettings.loaded) ?? .none, seconds: seconds)
        shell.start()
        return shell
    }

    /// Every (window, seq) shown by the files of `shells`, in order.
    func shown(_ shells: [TestShell]) -> [String] {
        shells.flatMap { shell in
            TestShell.writes(shell.effects).compactMap { $0.state.code.map { "\($0.window).\($0.sequence)" } }
        }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
    }

    @Test func aCodesRecordIsSavedAndSyncedBeforeTheCodeIsWritten() {
        let shell = TestShell()
        let effects = shell.start()
        let save = effects.firstIndex { if case .saveSettings = $0 { true } else { false } }!
        let write = effects.firstIndex { if case .writeOutputs = $0 { true } else { false } }!
        #expect(save < write)
        #expect(shell.memoryStore.state?.issued.entries == [IssueRecord.Entry(venue: .demo, periodSeconds: 15, window: 120_000_000, sequence: 0)])
        #expect(shell.memoryStore.state?.issued.highWater == 1_800_000_000)
        _ = shell.request("refresh now")
        #expect(shell.memoryStore.state?.issued.last(venue: .demo, periodSeconds: 15)?.sequence == 1)
        #expect(shell.memoryStore.saves.count == 2, "one save a code, none for the reply")
        _ = shell.request("get")
        #expect(shell.memoryStore.saves.count == 2)
    }

    @Test func aRetryThatIssuesANewWindowsCodeStillWritesEveryFileAfterTheSave() {
        let shell = TestShell(setup: TestShell.setup(period: 1))
        shell.start()
        shell.disk.refuses = { _ in true }
        shell.tick(after: 1000)
        shell.disk.refuses = nil
        // The retry comes with a new window: its code is saved first, then all files written.
        let retry = shell.tick(after: 1000)
        #expect(TestShell.writes(retry).map(\.files) == [OutputFile.all])
        #expect(shell.disk.document?.window == 1_800_000_002 && shell.disk.document?.health == "ok")
    }

    @Test func aRestartAfterForcedRefreshesContinuesTheSequence() {
        let first = TestShell(setup: TestShell.setup(period: 3600), seconds: 1_800_000_000)
        first.start()
        _ = first.request("refresh now")
        _ = first.request("refresh now")
        let second = TestShell(setup: TestShell.setup(period: 3600), saved: .loaded(first.memoryStore.state!), seconds: 1_800_000_010)
        second.start()
        #expect(second.disk.document?.sequence == 3, "seq 0 again would show the first code a second time")
        #expect(Set(shown([first, second])).count == shown([first, second]).count, "\(shown([first, second]))")
    }

    @Test func aRestartWithTheClockSteppedBackWaitsAndIssuesNoWindowTwice() {
        let first = TestShell(seconds: 1_800_000_020)  // window 120000001
        first.start()
        first.tick(after: 15_000)  // window 120000002
        let second = restart(first, at: 1_800_000_005)  // 30 s back: window 120000000
        #expect(second.disk.document?.phase == .waiting && second.disk.document?.url == nil)
        #expect(second.disk.document?.reason == "the wall clock moved back; waiting until 2027-01-15T08:00:30Z to issue new codes")
        #expect(second.disk.text == "WAITING FOR THE CLOCK\nNo check-in code: the wall clock moved back; waiting until "
            + "2027-01-15T08:00:30Z to issue new codes.\n")
        let refused = parse(second.request("refresh now"))
        #expect(refused["ok"] == .bool(false) && refused["code"] == .string("not-issued"))
        second.clock.set(seconds: 1_800_000_030)  // back in the newest window: its next sequence
        second.tick(clockWasSet: true)
        #expect(second.disk.document?.window == 120_000_002 && second.disk.document?.sequence == 1)
        #expect(second.disk.document?.health == "ok")
        #expect(shown([first, second]) == ["120000001.0", "120000002.0", "120000002.1"])
    }

    @Test func aRecordThatIsMissingFromAnExistingFileCountsAsLostAndCodesWaitForTheNextWindow() {
        let shell = TestShell(saved: .loaded(SavedState(settings: OperatorSettings(shake: .off))), seconds: 1_800_000_004)
        shell.start()
        #expect(shell.disk.document?.phase == .waiting)
        #expect(shell.disk.document?.reason == "the record of the codes issued was lost; waiting until 2027-01-15T08:00:15Z to issue new codes")
        #expect(shell.memoryStore.state?.issued.floor == 1_800_000_004, "the loss itself is saved")
        shell.tick(after: 11_000)
        #expect(shell.disk.document?.window == 120_000_001 && shell.disk.document?.sequence == 0)
        #expect(shell.disk.document?.shake == .off)
    }

    @Test func aStateThatCannotBeSavedAtStartComesUpPausedWithNoCode() {
        let shell = TestShell()
        shell.memoryStore.failing = true
        let effects = shell.start()
        #expect(TestShell.writes(effects).allSatisfy { $0.state.code == nil }, "no code whose record is not on disk")
        #expect(shell.disk.document?.phase == .paused && shell.disk.document?.refresh == .paused)
        #expect(shell.disk.document?.reason?.hasPrefix("cannot save the daemon's state (cannot write /state/settings: No space left on device)") == true)
        #expect(shell.logs.contains { $0.hasPrefix("degraded: cannot save the daemon's state") && $0.hasSuffix("retrying every second") })
        #expect(effects.contains { if case .log(.error, _) = $0 { true } else { false } })
        #expect(TestShell.timers(effects).last == WallTime(seconds: 1_800_000_001), "retried every second")
        #expect(shell.core.counters.saveFailures == 1)
    }

    @Test func aPauseThatCannotBeSavedIsRefusedButTakesEffectAndIsSavedOnceItCanBe() {
        let shell = TestShell()
        shell.start()
        shell.memoryStore.failing = true
        let reply = parse(shell.request("refresh pause"))
        #expect(reply["ok"] == .bool(false) && reply["code"] == .string("not-saved"))
        #expect(reply["error"]?.string?.contains("No space left on device") == true)
        #expect(reply["state"]?["state"] == .string("paused"), "fail closed: the code is gone from the files at once")
        #expect(shell.disk.document?.phase == .paused && shell.disk.document?.url == nil)
        #expect(shell.memoryStore.saved == OperatorSettings(shake: .on, refresh: .auto), "the file still says auto")
        // A resume cannot be saved either: it is refused and nothing is shown.
        let resume = parse(shell.request("refresh auto"))
        #expect(resume["ok"] == .bool(false) && resume["code"] == .string("not-saved"))
        #expect(shell.disk.document?.phase == .paused)
        shell.memoryStore.failing = false
        let saved = shell.tick(after: 1000)
        #expect(shell.memoryStore.saved?.refresh == .paused && shell.memoryStore.saved?.shake == .on, "the pause reaches the disk")
        #expect(TestShell.logs(saved).contains("healthy again: outputs are current"))
        #expect(shell.disk.document?.phase == .paused && shell.disk.document?.health == "ok")
        #expect(parse(shell.request("refresh auto"))["ok"] == .bool(true))
        #expect(shell.disk.document?.sequence == 2, "seq 1 was issued by the refused resume, never shown, and is skipped")
    }

    @Test func aShakeModeChangeThatCannotBeSavedIsNotOK() {
        let shell = TestShell()
        shell.start()
        shell.memoryStore.failing = true
        let reply = parse(shell.request("shake off"))
        #expect(reply["ok"] == .bool(false) && reply["code"] == .string("not-saved"))
        #expect(shell.core.state.code == nil, "codes pause: their records cannot be saved")
    }

    @Test func readOnlyOutputsMakeEveryChangeNotOKAndGetSaysWhatTheFilesShow() {
        let shell = TestShell()
        shell.start()
        shell.disk.refuses = { _ in true }
        for line in ["refresh now", "shake", "refresh now"] {
            let reply = parse(shell.request(line))
            #expect(reply["ok"] == .bool(false) && reply["code"] == .string("not-written"), "\(line): \(reply)")
            #expect(reply["state"]?["seq"] == .number(0))
        }
        let get = parse(shell.request("get"))
        #expect(get["ok"] == .bool(true) && get["state"]?["seq"] == .number(0) && get["state"]?["health"] == .string("degraded"))
        #expect(shell.core.state.code?.sequence == 0, "STATUS= and status name the code on disk")
        let off = parse(shell.request("shake off"))
        #expect(off["code"] == .string("not-written") && off["state"]?["shake"] == .string("on"))
        shell.disk.refuses = nil
        shell.tick(after: 1000)
        #expect(shell.disk.document?.sequence == 3 && shell.disk.document?.shake == .off)
        #expect(parse(shell.request("refresh now"))["ok"] == .bool(true))
    }

    @Test func aRefreshWhileTheClockIsBehindIsNotOK() {
        let shell = TestShell(seconds: 1_800_000_020)
        shell.start()
        shell.clock.set(seconds: 1_800_000_000 - 600)
        shell.tick(clockWasSet: true)
        let reply = parse(shell.request("refresh now"))
        #expect(reply["ok"] == .bool(false) && reply["code"] == .string("not-issued"))
        #expect(reply["error"]?.string?.hasPrefix("no new code: the wall clock moved back; waiting until ") == true)
        #expect(parse(shell.request("shake"))["code"] == .string("not-issued"))
    }

    @Test func waitingForTheClockToSynchroniseARefreshIsNotOK() {
        let sync = FakeClockSync()
        sync.reading = FakeClockSync.unsynchronized
        let shell = TestShell(setup: TestShell.setup(requireClockSync: true), clockSync: sync)
        shell.start()
        #expect(parse(shell.request("refresh now"))["code"] == .string("waiting"))
    }

    @Test func theLargestSequenceIsReissuedAndNothingNewIsSaved() {
        var record = IssueRecord()
        record.record(venue: .demo, periodSeconds: 15, window: 120_000_000, sequence: CheckInCodeIssuer.maximumSequence, at: 1_800_000_001)
        let shell = TestShell(saved: .loaded(SavedState(issued: record)), seconds: 1_800_000_002)
        shell.start()
        #expect(shell.disk.document?.sequence == Int64(CheckInCodeIssuer.maximumSequence))
        let saves = shell.memoryStore.saves.count
        #expect(parse(shell.request("refresh now"))["ok"] == .bool(true))
        #expect(shell.disk.document?.sequence == Int64(CheckInCodeIssuer.maximumSequence))
        #expect(shell.memoryStore.saves.count == saves, "the same code: the record did not move")
    }

    @Test func refusalsCountedAtOnceAreInTheStoppedStatesMetrics() {
        let shell = TestShell()
        shell.start()
        shell.clock.advance(milliseconds: 100)
        shell.send(.refused(count: 27, notice: nil))  // within the second: metrics.prom not rewritten yet
        #expect(shell.metrics?.contains("qrcheckin_control_refusals_total{venue=\"DEMO\"} 0\n") == true)
        shell.send(.signal(.terminate))
        #expect(shell.metrics?.contains("qrcheckin_control_refusals_total{venue=\"DEMO\"} 27\n") == true)
    }
}

@Suite struct IssueRecordTests {
    @Test func keepsTheNewestPerVenueAndPeriodAndTheHighWaterMark() throws {
        var record = IssueRecord()
        let hall = try VenueID("HALL")
        record.record(venue: .demo, periodSeconds: 15, window: 10, sequence: 2, at: 150)
        record.record(venue: hall, periodSeconds: 15, window: 9, sequence: 0, at: 140)
        record.record(venue: .demo, periodSeconds: 60, window: 2, sequence: 0, at: 145)
        #expect(record.last(venue: .demo, periodSeconds: 15)?.sequence == 2)
        #expect(record.last(venue: hall, periodSeconds: 15)?.window == 9)
        #expect(record.highWater == 150, "the latest time seen, even when a later call had an earlier clock")
        let code = FakeIssuer(period: .standard).code(window: 10, sequence: 2)
        #expect(record.covers(code, periodSeconds: 15) && !record.covers(code, periodSeconds: 60))
        #expect(!record.covers(FakeIssuer(period: .standard).code(window: 10, sequence: 3), periodSeconds: 15))
    }

    @Test func forgettingTheOldestRaisesTheFloorForUnknownVenues() throws {
        var record = IssueRecord()
        for index in 0...IssueRecord.capacity {
            record.record(venue: try VenueID("V\(index)"), periodSeconds: 15, window: 100, sequence: 0, at: 1500 + Int64(index))
        }
        #expect(record.entries.count == IssueRecord.capacity)
        #expect(record.last(venue: try VenueID("V0"), periodSeconds: 15) == nil)
        #expect(record.floor == 1500 + Int64(IssueRecord.capacity))
        #expect(record.firstFreeWindow(period: .standard) == 105, "the window after the one holding the floor")
        #expect(IssueRecord.lost(at: 1507).firstFreeWindow(period: .standard) == 101)
    }
}
