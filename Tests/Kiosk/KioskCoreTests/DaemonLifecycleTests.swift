import KioskCore
import Testing

/// What may follow what in the daemon's life, through the core.
@Suite struct DaemonLifecycleTests {
    @Test func startingBecomesRunningAtTheFirstSetOnDiskThenStoppingThenExited() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true))
        #expect(shell.core.lifecycle == .starting)
        let started = shell.start()
        #expect(shell.core.lifecycle == .running)
        #expect(TestShell.notifications(started).contains { $0.hasPrefix("READY=1") || $0 == "READY=1" })
        shell.send(.signal(.terminate))
        #expect(shell.core.lifecycle == .exited(.stopped), "the stopped state was written, then the loop ended")
        #expect(shell.send(.signal(.interrupt)).isEmpty, "nothing follows exited")
    }

    @Test func aDaemonStoppedBeforeItWasReadyNeverSaysReady() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true))
        shell.disk.refuses = { _ in true }
        shell.start()
        #expect(shell.core.lifecycle == .starting, "nothing is on disk: not ready")
        let stopping = shell.send(.signal(.terminate))
        #expect(shell.core.lifecycle == .exited(.stopped))
        #expect(!TestShell.notifications(shell.effects).contains { $0.contains("READY=1") })
        #expect(TestShell.notifications(stopping).contains("STOPPING=1"))
    }

    @Test func aSecondStopSignalChangesNothing() {
        let shell = TestShell()
        shell.start()
        shell.disk.refuses = { _ in true }  // the stopped state cannot be written: still stopping until the result
        shell.send(.signal(.terminate))
        #expect(shell.core.lifecycle == .exited(.stopped))
        var lifecycle = DaemonLifecycle.stopping
        let stopped = lifecycle.stop()
        #expect(!stopped, "already stopping")
        #expect(lifecycle == .stopping)
    }

    @Test func aTimerFailureEndsAnyStateButExited() {
        for start in [DaemonLifecycle.starting, .running, .stopping] {
            var lifecycle = start
            lifecycle.exit(.software)
            #expect(lifecycle == .exited(.software))
            lifecycle.exit(.stopped)
            #expect(lifecycle == .exited(.software), "nothing follows exited")
        }
        let shell = TestShell()
        shell.start()
        shell.timerFails = true
        shell.tick(after: 15_000)
        #expect(shell.core.lifecycle == .exited(.software))
    }
}
