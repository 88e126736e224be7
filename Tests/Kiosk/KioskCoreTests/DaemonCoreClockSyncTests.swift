import KioskCore
import KioskViews
import SharedDomain
import SharedJSON
import Testing

/// Clock trust on a fake clock-sync source: a warning, never degraded; with require-clock-sync
/// no code until the clock is synchronised, then at once.
@Suite struct DaemonCoreClockSyncTests {
    @Test func anUnsynchronisedClockIsAWarningEverywhereAndClearsWhenItSynchronises() {
        let sync = FakeClockSync()
        sync.reading = FakeClockSync.unsynchronized
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true), clockSync: sync)
        let started = shell.start()
        let document = shell.disk.document!
        #expect(document.phase == .running && document.health == "ok", "a warning, not degraded")
        #expect(document.clock == ClockSync(synchronized: false, maxErrorMicroseconds: 16_000_000))
        let json = String(decoding: shell.disk.files["current.json"]!, as: UTF8.self)
        #expect(json.hasSuffix(",\"clock\":{\"synchronized\":false,\"maxErrorSeconds\":16}}\n"))
        #expect(TestShell.logs(started).contains("the clock is not synchronised (max error 16s): verifiers may reject codes as expired; see docs/DAEMON.md, Clock trust"))
        #expect(TestShell.notifications(started).last?.hasSuffix("; warning: clock not synchronised") == true)
        #expect(shell.metrics?.contains("qrcheckin_clock_synchronized{venue=\"DEMO\"} 0\n") == true)
        #expect(shell.metrics?.contains("qrcheckin_clock_max_error_seconds{venue=\"DEMO\"} 16\n") == true)
        let reply = try! JSONParser.parse(shell.request("get")!)
        #expect(reply["state"]?["clock"]?["synchronized"] == .bool(false), "ctl get says so too")
        // The words readers show.
        let report = StatusReport(document: document, now: shell.clock.now(), processAlive: true)
        #expect(report.verdict == .running, "status still exits 0")
        #expect(report.text(language: .en, pngPath: "/p", pngAgeSeconds: 0).contains(
            "  Warning: clock not synchronised (±16s): codes may be rejected as expired\n"))
        #expect(report.text(language: .ko, pngPath: "/p", pngAgeSeconds: 0).contains("  경고: 시계가 동기화되지 않음 (±16초)"))

        sync.reading = ClockSync(synchronized: true, maxErrorMicroseconds: 20_000)
        let synced = shell.tick(after: 15_000)
        #expect(shell.disk.document?.clock?.synchronized == true)
        #expect(TestShell.logs(synced) == ["the clock is synchronised (max error 1s)"])
        #expect(!(TestShell.notifications(synced).last ?? "").contains("warning"))
        #expect(shell.metrics?.contains("qrcheckin_clock_synchronized{venue=\"DEMO\"} 1\n") == true)
        #expect(shell.metrics?.contains("qrcheckin_clock_max_error_seconds{venue=\"DEMO\"} 0.02\n") == true)
        let cleared = StatusReport(document: shell.disk.document!, now: shell.clock.now(), processAlive: true)
        #expect(!cleared.text(language: .en, pngPath: "/p", pngAgeSeconds: 0).contains("Warning"))
    }

    @Test func aCreepingMaximumErrorDoesNotRewriteTheOutputsBetweenRotations() {
        let sync = FakeClockSync()
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true, watchdogMilliseconds: 6000), clockSync: sync)
        shell.start()
        let batches = shell.disk.batches.count
        sync.reading = ClockSync(synchronized: true, maxErrorMicroseconds: 9000)
        shell.clock.current = shell.core.armed!  // the watchdog's wake, 3 s in
        shell.tick(clockWasSet: false)
        #expect(shell.disk.batches.count == batches, "the reading waits for the next rotation")
        shell.tick(after: 12_000)
        #expect(shell.disk.document?.clock?.maxErrorMicroseconds == 1_000_000)
    }

    @Test func requireClockSyncIssuesNoCodeUntilTheTickTheClockSynchronises() {
        let sync = FakeClockSync()
        sync.reading = FakeClockSync.unsynchronized
        let shell = TestShell(setup: TestShell.setup(requireClockSync: true), host: DaemonHost(pid: 42, notifies: true), clockSync: sync)
        let started = shell.start()
        #expect(shell.disk.document?.phase == .waiting)
        #expect(shell.disk.document?.url == nil && shell.disk.document?.safeNumber == nil)
        #expect(shell.disk.text == "WAITING FOR THE CLOCK\nNo check-in code until the system clock is synchronised (require-clock-sync).\n")
        #expect(TestShell.logs(started).contains("waiting for the clock to synchronise (require-clock-sync = yes): no code is shown"))
        #expect(TestShell.notifications(started).contains { $0.contains("STATUS=DEMO waiting for the clock to synchronise") })
        #expect(shell.metrics?.contains("qrcheckin_state{venue=\"DEMO\",state=\"waiting\"} 1\n") == true)
        #expect(StatusReport(document: shell.disk.document!, now: shell.clock.now(), processAlive: true).verdict.exitStatus == 1)
        #expect(TestShell.timers(started) == [WallTime(seconds: 1_800_000_001)], "it looks again every second")
        // Shakes and refreshes cannot force a code out of an untrusted clock either.
        shell.send(.signal(.user1))
        _ = shell.request("refresh now")
        for _ in 0..<20 { shell.tick(after: 1000) }
        #expect(TestShell.writes(shell.effects).allSatisfy { $0.state.code == nil }, "no code was ever written")
        #expect(shell.core.counters.rotations.values.reduce(0, +) == 0, "none was issued")
        #expect(shell.disk.document?.phase == .waiting)

        sync.reading = ClockSync(synchronized: true, maxErrorMicroseconds: 40_000)
        let synced = shell.tick(after: 1000)
        let first = TestShell.writes(synced).first?.state.code
        #expect(first?.window == (shell.clock.now().seconds / 15) && first?.sequence == 0, "the first code, on this very tick")
        #expect(shell.disk.document?.phase == .running)
        #expect(TestShell.logs(synced) == ["the clock is synchronised (max error 1s)", "the clock is synchronised: showing codes from window \(first!.window)"])
        #expect(shell.core.counters.rotations == [.window: 1])
        #expect(TestShell.timers(synced) == [shell.core.model.nextBoundary(after: shell.clock.now())], "back to boundaries")
    }

    @Test func requireClockSyncFromTheStartIssuesNothingBeforeTheClockIsKnown() {
        let sync = FakeClockSync()
        sync.reading = .unknown
        let shell = TestShell(setup: TestShell.setup(requireClockSync: true), clockSync: sync)
        shell.start()
        #expect(shell.core.state.phase == .waitingForClock, "unknown is not synchronised: fail closed")
        #expect(shell.core.counters.rotations.isEmpty)
    }

    @Test func aReloadCanTurnTheRequirementOnAndOff() {
        let sync = FakeClockSync()
        sync.reading = FakeClockSync.unsynchronized
        let shell = TestShell(clockSync: sync)
        shell.start()
        #expect(shell.disk.document?.phase == .running)
        shell.reloads = [TestShell.setup(requireClockSync: true), TestShell.setup()]
        shell.send(.signal(.hangup))
        #expect(shell.disk.document?.phase == .waiting)
        shell.send(.signal(.hangup))
        #expect(shell.disk.document?.phase == .running)
        #expect(shell.disk.document?.sequence == 1, "a new code, never the one shown before")
    }
}
