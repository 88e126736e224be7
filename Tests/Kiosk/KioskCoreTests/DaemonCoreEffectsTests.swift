import KioskCore
import Testing

/// The decisions that were the shell's, now the core's: the textfile collector's failures,
/// a timer that cannot be armed, the clock reading carried by the events, the reply returned.
@Suite struct DaemonCoreEffectsTests {
    @Test func metricsCopyFailuresAreLoggedWhenTheyStartAndWhenTheyEndNotAtEveryWrite() {
        let shell = TestShell()
        shell.metricsDirectory = "/metrics"
        shell.start()
        #expect(shell.metricsCopies.count == 1, "the copy goes out with every metrics.prom")
        shell.metricsCopyFails = true
        let failed = shell.tick(after: 15_000)
        #expect(TestShell.logs(failed) == ["cannot write metrics into /metrics: cannot open /metrics: No such file or directory"])
        #expect(shell.disk.document?.health == "ok", "the output directory's files are written whatever the copy does")
        #expect(TestShell.logs(shell.tick(after: 15_000)).isEmpty, "logged once, not at every write")
        shell.metricsCopyFails = false
        #expect(TestShell.logs(shell.tick(after: 15_000)) == ["metrics are written into /metrics again"])
        #expect(TestShell.logs(shell.tick(after: 15_000)).isEmpty)
    }

    @Test func withoutAMetricsDirectoryNothingIsCopied() {
        let shell = TestShell()
        let started = shell.start()
        #expect(shell.metricsCopies.isEmpty)
        #expect(!started.contains { if case .log(_, let line) = $0 { line.contains("cannot write metrics") } else { false } })
    }

    @Test func aTimerThatCannotBeArmedEndsTheLoopWithSoftwareAfterSayingWhy() {
        let shell = TestShell()
        shell.timerFails = true
        let effects = shell.start()
        #expect(effects.suffix(2) == [.log(.error, "cannot arm the timer: Invalid argument"), .exit(.software)])
        #expect(shell.exited == .software)
        #expect(shell.tick(after: 1000).isEmpty, "nothing happens after the exit")
    }

    @Test func aStopAsAskedExitsStopped() {
        let shell = TestShell()
        shell.start()
        shell.send(.signal(.terminate))
        #expect(shell.exited == .stopped)
    }

    /// The core reads no clock-sync source: what the event carries is what it decides on.
    @Test func theClockReadingIsTheEventsNotTheCores() {
        let sync = FakeClockSync()
        sync.reading = .unknown
        let shell = TestShell(setup: TestShell.setup(requireClockSync: true), clockSync: sync)
        shell.start()
        #expect(shell.core.model.state.phase == .waitingForClock)
        let reads = sync.reads
        let synced = ClockSync(synchronized: true, maxErrorMicroseconds: 1000)
        shell.clock.advance(milliseconds: 1000)
        let effects = shell.send(.tick(clockWasSet: false, clock: synced))
        #expect(sync.reads == reads, "nothing but the shell reads the clock's synchronisation")
        #expect(shell.core.model.state.clock == synced)
        #expect(TestShell.writes(effects).contains { $0.state.code != nil }, "the first code follows the synchronised reading")
    }

    @Test func theReplyIsReturnedByThePerformerNotLeftInAField() {
        let shell = TestShell()
        shell.start()
        let outcome = DaemonEffectPerformer(ports: shell).send(.request(line: "get", peer: ControlPeer(uid: 0, pid: 1))) {
            shell.core.handle($0, at: $1)
        }
        #expect(outcome.reply?.hasPrefix("{\"ok\":true") == true)
        #expect(outcome.effects.contains(.reply(outcome.reply!)))
    }
}
