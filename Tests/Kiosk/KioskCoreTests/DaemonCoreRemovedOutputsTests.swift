import KioskCore
import SharedDomain
import Testing

/// Removed outputs are whole again within a second, showing the code they showed (issue 14's
/// promise; issue 37: the daemon's own descriptor of the output directory kept the kernel from
/// saying the directory was gone, and the files came back only at the next window). The core
/// puts them back half a second after the last removal it heard, whether or not the
/// directory's own removal is ever heard of.
@Suite struct DaemonCoreRemovedOutputsTests {
    /// A daemon at a 30 s period, 3.4 s into its window, whose files and socket someone just
    /// removed (`rm -rf`, or a cleaner): what the core answered the removal with, and the files
    /// as they were before it.
    private func removed(socketToo: Bool = true) -> (shell: TestShell, effects: [DaemonEffect], before: [String: [UInt8]]) {
        let shell = TestShell(setup: TestShell.setup(period: 30))
        shell.start()
        shell.clock.advance(milliseconds: 3400)
        let before = shell.disk.files
        shell.disk.files = [:]
        var effects = socketToo ? shell.send(.socketGone) : []
        effects += shell.send(.outputsRemoved)
        return (shell, effects, before)
    }

    private static let settled = WallTime(milliseconds: 1_800_000_003_900)

    @Test func removedFilesAreWhollyBackHalfASecondLaterWithTheSameCodeAndTheScheduleKept() {
        let (shell, effects, before) = removed()
        #expect(TestShell.writes(effects).isEmpty, "not at once: rm -rf may still be emptying the directory")
        #expect(TestShell.timers(effects).last == Self.settled, "half a second after the removal")
        shell.clock.current = shell.core.armed!
        let tick = shell.tick()
        #expect(tick.first == .rebindSocket, "the socket first, as for any removal")
        #expect(TestShell.logs(tick).first == "recreated the control socket /out/control.sock")
        #expect(TestShell.writes(tick).map(\.files) == [OutputFile.all])
        #expect(shell.disk.files["current.png"] == before["current.png"] && shell.disk.files["current.txt"] == before["current.txt"],
                "the same code, byte for byte")
        var document = shell.disk.document!
        #expect(document.updatedAt == 1_800_000_003, "when this document was written (docs/STATE.md)")
        document.updatedAt = 1_800_000_000
        #expect(document == (try? StateDocument(parsing: before["current.json"]!)), "the same state")
        #expect(shell.disk.files["metrics.prom"] != nil)
        #expect(shell.core.counters.rotations == [.window: 1], "a removal issues no code")
        #expect(shell.core.armed == WallTime(seconds: 1_800_000_030), "the next code at the window's end, as before")
        shell.tick(after: 1000)
        #expect(shell.disk.batches.count == 2, "written once again, not at every tick after")
        shell.clock.set(seconds: 1_800_000_030)
        shell.tick()
        #expect(shell.disk.document?.window == 60_000_001 && shell.disk.document?.sequence == 0)
    }

    @Test func nothingIsWrittenWhileRemovalsGoOnAndHalfASecondAfterTheLast() {
        let (shell, _, _) = removed(socketToo: false)
        var meanwhile = shell.send(.refused(count: 3, notice: nil))
        shell.clock.advance(milliseconds: 200)
        meanwhile += shell.send(.metricsCopied(directory: "/metrics", failure: nil))
        #expect(shell.request("get")?.hasPrefix("{\"ok\":true") == true)
        shell.clock.advance(milliseconds: 250)
        meanwhile += shell.send(.outputsRemoved)  // more of the same removal, 450 ms after the first
        meanwhile += shell.tick(after: 100)  // a tick of its own (the watchdog, say)
        #expect(TestShell.writes(meanwhile).isEmpty)
        #expect(shell.disk.files.isEmpty)
        #expect(shell.core.armed == WallTime(milliseconds: 1_800_000_004_350), "half a second after the last")
        shell.clock.current = shell.core.armed!
        #expect(TestShell.writes(shell.tick()).count == 1)
        #expect(Set(shell.disk.files.keys) == Set(OutputFile.names))
    }

    @Test func anOperatorsRequestMeanwhileIsWrittenAtOnceAndItsReplySaysWhatTheFilesShow() {
        let (shell, _, _) = removed(socketToo: false)
        shell.clock.advance(milliseconds: 100)
        let reply = shell.request("refresh now")
        #expect(reply?.hasPrefix("{\"ok\":true") == true, "written, not put off: \(reply ?? "no reply")")
        #expect(Set(shell.disk.files.keys) == Set(OutputFile.names), "every file back at once, with the new code")
        #expect(shell.disk.document?.sequence == 1)
        #expect(shell.core.armed == WallTime(seconds: 1_800_000_030), "no rewrite left waiting: the next window's code")
    }

    @Test func aRotationDueMeanwhileWaitsForTheRemovalToSettle() {
        let shell = TestShell(setup: TestShell.setup(period: 30))
        shell.start()
        shell.clock.current = WallTime(milliseconds: 1_800_000_029_800)
        shell.send(.outputsRemoved)
        shell.clock.set(seconds: 1_800_000_030)
        #expect(TestShell.writes(shell.tick()).isEmpty, "the new code is issued, its files wait")
        #expect(shell.core.armed == WallTime(milliseconds: 1_800_000_030_300))
        shell.clock.current = shell.core.armed!
        shell.tick()
        #expect(shell.disk.document?.window == 60_000_001)
    }

    @Test func aWallClockSetBackDoesNotHoldTheRewriteOff() {
        let (shell, _, _) = removed()
        shell.clock.set(seconds: 1_800_000_003 - 3600)
        shell.tick(clockWasSet: true)
        #expect(Set(shell.disk.files.keys) == Set(OutputFile.names))
    }

    @Test func theDirectoryHeardGoneBringsThemBackAtOnceAndOnlyOnce() {
        let (shell, _, before) = removed()
        let gone = shell.send(.outputsGone)  // rm -rf is done: the directory itself is gone
        #expect(gone.first == .rebindSocket)
        #expect(TestShell.writes(gone).map(\.files) == [OutputFile.all])
        #expect(shell.disk.files["current.json"] == before["current.json"])
        #expect(shell.core.armed == WallTime(seconds: 1_800_000_030), "nothing waits any more")
    }

    @Test func aRewriteThatFailsIsRetriedEverySecondAndSaysDegraded() {
        let (shell, _, before) = removed()
        shell.disk.refuses = { _ in true }
        shell.clock.current = shell.core.armed!
        shell.tick()
        #expect(shell.core.state.health == .degraded(reason: "cannot create /out/current.png: No space left on device"))
        #expect(shell.core.armed == WallTime(seconds: 1_800_000_004))
        shell.disk.refuses = nil
        shell.tick(after: 100)
        #expect(shell.core.state.health == .ok)
        #expect(shell.disk.files["current.png"] == before["current.png"], "still the same code")
    }

    @Test func aRewriteThatCannotBeDoneNeverWakesTheDaemonAtOnceOverAndOver() {
        // Counters that changed (the failed write) want metrics.prom rewritten a second after
        // its last write, long past; with nothing on disk no write honours that time, and a
        // timer armed in the past fires at once: the daemon spun on a loosened directory.
        for event in [DaemonEvent.outputsRemoved, .outputsGone] {
            let shell = TestShell(setup: TestShell.setup(period: 30))
            shell.start()
            shell.tick(after: 5000)
            shell.disk.refuses = { _ in true }
            shell.send(event)
            shell.clock.current = shell.core.armed!
            shell.tick()
            #expect(shell.core.counters.writeFailures >= 1)
            #expect(shell.core.armed! > shell.clock.now(), "\(event): armed at \(shell.core.armed!), now \(shell.clock.now())")
        }
    }

    @Test func aStopMeanwhileWritesTheStoppedStateAtOnce() {
        let (shell, _, _) = removed()
        let stop = shell.send(.signal(.terminate))
        #expect(TestShell.writes(stop).map(\.state.phase) == [.stopped])
        #expect(shell.exited == .stopped)
    }
}
