import KioskCore
import KioskViews
import SharedDomain
import SharedJSON
import Testing

/// The daemon's decisions, on a test clock: what only the end-to-end tests reached before.
@Suite struct DaemonCoreStartTests {
    @Test func startingWritesEveryOutputJSONLastAndArmsTheTimerForTheBoundary() {
        let shell = TestShell(seconds: 1_800_000_004)
        let effects = shell.start()
        #expect(TestShell.logs(effects) == ["serving venue DEMO every 15s: writing /out/{current.png,current.txt,current.json,metrics.prom}, control socket /out/control.sock"])
        #expect(shell.disk.batches == [["current.png", "current.txt", "current.json", "metrics.prom"]])
        #expect(OutputFile.all.firstIndex(of: .json)! > OutputFile.all.firstIndex(of: .png)!
                && OutputFile.all.firstIndex(of: .json)! > OutputFile.all.firstIndex(of: .text)!,
                "current.json is put in place after the files that show the code")
        #expect(shell.disk.document?.window == 120_000_000 && shell.disk.document?.health == "ok")
        #expect(shell.disk.document?.pid == 42)
        #expect(TestShell.timers(effects) == [WallTime(seconds: 1_800_000_015)])
        #expect(TestShell.notifications(effects).isEmpty, "no systemd: no notifications")
    }

    @Test func underSystemdReadyComesAfterTheFirstFilesAndTheStatusLineFollows() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true, watchdogMilliseconds: 4000))
        let effects = shell.start()
        let notes = TestShell.notifications(effects)
        #expect(notes == ["READY=1", "STATUS=DEMO 12현34규 seq 0, expires at 2027-01-15T08:00:15Z"])
        let readyIndex = effects.firstIndex(of: .notify("READY=1"))!
        let writeIndex = effects.firstIndex { if case .writeOutputs = $0 { true } else { false } }!
        #expect(writeIndex < readyIndex)
        #expect(TestShell.timers(effects) == [WallTime(seconds: 1_800_000_002)], "half the watchdog interval")
    }

    @Test func aReadyIsNotSentWhileTheFirstFilesCannotBeWritten() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true))
        shell.disk.refuses = { _ in true }
        #expect(!TestShell.notifications(shell.start()).contains("READY=1"))
        shell.disk.refuses = nil
        #expect(TestShell.notifications(shell.tick(after: 1000)).first == "READY=1")
    }

    @Test func damagedSavedSettingsStartPausedAndSaySo() {
        let shell = TestShell(saved: .unreadable(reason: "/state/settings:2: refresh must be auto or paused"))
        let effects = shell.start()
        #expect(TestShell.logs(effects).first == "cannot use the saved settings: /state/settings:2: refresh must be auto or paused; starting paused (qrcheckin ctl refresh auto resumes)")
        #expect(shell.disk.document?.phase == .paused)
        #expect(shell.disk.text == "PAUSED\nCheck-in codes are paused by the operator.\n")
        #expect(!effects.contains { if case .saveSettings = $0 { true } else { false } }, "the damaged file stays until an operator acts")
    }
}

@Suite struct DaemonCoreTimerTests {
    @Test func plainModeWakesOnlyAtBoundariesAndRotatesQuietly() {
        let shell = TestShell()
        shell.start()
        for window in 1...4 {
            let effects = shell.tick(after: 15_000)
            #expect(TestShell.timers(effects) == [WallTime(seconds: 1_800_000_000 + Int64(window + 1) * 15)])
            #expect(shell.disk.document?.window == 120_000_000 + Int64(window))
            #expect(TestShell.logs(effects).isEmpty, "a regular rotation is the heartbeat, not news")
        }
    }

    @Test func systemdModeWakesOnlyAtBoundariesAndForTheWatchdog() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true, watchdogMilliseconds: 6000))
        shell.start()
        // Watchdog every 3 s (half of WatchdogSec=6), and the boundary at 15 s.
        var wakes: [Int64] = []
        var statuses: [String] = []
        var pings = 0
        while shell.clock.now().seconds < 1_800_000_030 {
            let next = shell.core.armed!
            shell.clock.current = next
            let effects = shell.tick(clockWasSet: false)
            wakes.append(next.seconds - 1_800_000_000)
            for note in TestShell.notifications(effects) {
                pings += note.contains("WATCHDOG=1") ? 1 : 0
                statuses += note.split(separator: "\n").filter { $0.hasPrefix("STATUS=") }.map(String.init)
            }
            #expect(TestShell.logs(effects).isEmpty)
        }
        #expect(wakes == [3, 6, 9, 12, 15, 18, 21, 24, 27, 30])
        #expect(pings == wakes.count, "every wake pings the watchdog")
        #expect(statuses == ["STATUS=DEMO 12현34규 seq 0, expires at 2027-01-15T08:00:30Z",
                             "STATUS=DEMO 12현34규 seq 0, expires at 2027-01-15T08:00:45Z"], "the status changes with the code only")
        // Requests do not push the watchdog's wake later.
        shell.clock.advance(milliseconds: 1000)
        #expect(TestShell.timers(shell.send(.request(line: "get", peer: ControlPeer(uid: 0, pid: 1)))).isEmpty)
        let set = shell.tick(after: 500, clockWasSet: true)
        #expect(TestShell.logs(set) == ["the wall clock was set; re-checking the window"])
        #expect(TestShell.timers(set) == [WallTime(milliseconds: 1_800_000_034_500)], "setting the clock cancels the timer: armed again")
    }

    @Test func withoutAWatchdogSystemdModeWakesOnlyAtBoundaries() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true))
        #expect(TestShell.timers(shell.start()) == [WallTime(seconds: 1_800_000_015)])
        #expect(TestShell.timers(shell.tick(after: 15_000)) == [WallTime(seconds: 1_800_000_030)])
    }

    @Test func failingOutputsAreRetriedEverySecondAndTheScheduleReturnsToBoundaries() {
        let shell = TestShell()
        shell.start()
        shell.disk.refuses = { _ in true }
        let failed = shell.tick(after: 15_000)
        #expect(TestShell.timers(failed) == [WallTime(seconds: 1_800_000_016)])
        #expect(TestShell.timers(shell.tick(after: 1000)) == [WallTime(seconds: 1_800_000_017)])
        shell.disk.refuses = nil
        let recovered = shell.tick(after: 1000)
        #expect(TestShell.timers(recovered) == [WallTime(seconds: 1_800_000_030)])
        #expect(TestShell.logs(recovered) == ["healthy again: outputs are current"])
    }
}

@Suite struct DaemonCoreSignalTests {
    @Test func sigusr1Shakes() {
        let shell = TestShell()
        shell.start()
        let effects = shell.send(.signal(.user1))
        #expect(shell.disk.document?.sequence == 1)
        #expect(TestShell.logs(effects) == ["issued a fresh code (shake, seq 1)"])
        #expect(shell.core.counters.rotations[.shake] == 1)
    }

    @Test func sigtermWritesTheStoppedStateThenExits() {
        let shell = TestShell(host: DaemonHost(pid: 42, notifies: true))
        shell.start()
        let effects = shell.send(.signal(.terminate))
        #expect(TestShell.logs(effects) == ["received SIGTERM; stopping", "stopped"])
        #expect(TestShell.notifications(effects).first == "STOPPING=1")
        #expect(shell.disk.document?.phase == .stopped && shell.disk.document?.url == nil)
        #expect(shell.disk.text == "STOPPED\nThe check-in daemon is not running.\n")
        #expect(effects.last == .exit(.stopped))
        #expect(shell.tick(clockWasSet: false).isEmpty, "nothing happens after the exit")
    }

    @Test func sigtermOnAFullDiskSaysTheStoppedStateWasNotWritten() {
        let shell = TestShell()
        shell.start()
        let running = shell.disk.files
        shell.disk.refuses = { _ in true }
        let effects = shell.send(.signal(.interrupt))
        let logs = TestShell.logs(effects)
        #expect(logs.first == "received SIGINT; stopping")
        #expect(!logs.contains("stopped"), "not a plain 'stopped': the state on disk still says running")
        #expect(logs.last == "stopped, but the stopped state could not be written: cannot create /out/current.png: "
            + "No space left on device; the last code stays on disk in /out until it expires")
        #expect(effects.contains(.log(.error, logs.last!)))
        #expect(shell.disk.files == running)
        #expect(effects.last == .exit(.stopped))
    }

    @Test func sighupAsksForTheConfigurationAndAFailedReloadKeepsTheRunningOne() {
        let shell = TestShell()
        shell.start()
        let effects = shell.send(.signal(.hangup))
        #expect(effects.first == .reloadConfiguration)
        #expect(TestShell.logs(effects) == ["reload failed, keeping the running configuration: /etc/q.conf:2: period: bad"])
        #expect(effects.contains(.log(.error, "reload failed, keeping the running configuration: /etc/q.conf:2: period: bad")))
        #expect(TestShell.writes(effects).isEmpty)
    }
}

@Suite struct DaemonCoreRequestTests {
    func started() -> TestShell {
        let shell = TestShell()
        shell.start()
        return shell
    }

    func parse(_ reply: String?) -> JSONValue {
        (try? JSONParser.parse(reply ?? "")) ?? .null
    }

    @Test func getAnswersWithTheStateAndChangesNothing() {
        let shell = started()
        let before = shell.disk.batches.count
        let reply = shell.request("get")
        #expect(reply == "{\"ok\":true,\"state\":" + String(decoding: shell.disk.files["current.json"]!.dropLast(), as: UTF8.self) + "}")
        #expect(shell.disk.batches.count == before)
        #expect(!shell.logs.contains { $0.hasPrefix("control:") }, "a get is not logged")
    }

    @Test func refreshNowRepliesWithTheDocumentJustWrittenSerialisedOnce() {
        let shell = started()
        let effects = shell.send(.request(line: "refresh now", peer: ControlPeer(uid: 1000, pid: 5)))
        let frame = TestShell.writes(effects).last!
        #expect(effects.last == .reply("{\"ok\":true,\"state\":" + frame.document + "}"))
        #expect(shell.disk.document?.sequence == 1)
        #expect(TestShell.logs(effects) == ["control: 'refresh now' from uid 1000", "issued a fresh code (refresh-now, seq 1)"])
        #expect(shell.core.counters.rotations[.refreshNow] == 1 && shell.core.counters.requests == 1)
    }

    @Test func shakeModesAreSavedLoggedAndHonoured() {
        let shell = started()
        #expect(parse(shell.request("shake off"))["state"]?["shake"] == .string("off"))
        #expect(shell.memoryStore.saved == OperatorSettings(shake: .off, refresh: .auto, change: ModeChange(source: .local, by: nil, at: shell.clock.now().seconds)))
        #expect(shell.logs.suffix(2) == ["control: 'shake off' from uid 0", "shake mode off"])
        let ignored = parse(shell.request("shake"))
        #expect(ignored["ok"] == .bool(false) && ignored["code"] == .string("shake-off"))
        #expect(shell.logs.last == "shake ignored: shake mode is off")
        #expect(shell.core.counters.ignoredShakes == 1)
        #expect(shell.disk.document?.sequence == 0)
        #expect(parse(shell.request("shake toggle"))["state"]?["shake"] == .string("on"))
        #expect(parse(shell.request("shake"))["ok"] == .bool(true))
        #expect(shell.disk.document?.sequence == 1)
        #expect(parse(shell.request("shake on"))["ok"] == .bool(true))
    }

    @Test func pausedRefusesCodesUntilResumedAndNeverRepeatsOne() {
        let shell = started()
        #expect(parse(shell.request("refresh pause"))["state"]?["state"] == .string("paused"))
        #expect(shell.disk.document?.phase == .paused && shell.disk.document?.url == nil)
        for line in ["shake", "refresh now"] {
            let refused = parse(shell.request(line))
            #expect(refused["ok"] == .bool(false) && refused["code"] == .string("paused"))
        }
        let resumed = parse(shell.request("refresh auto"))
        #expect(resumed["state"]?["seq"] == .number(1), "the same window again: a new sequence")
        #expect(shell.memoryStore.saved?.refresh == .auto && shell.memoryStore.saved?.change?.source == .local)
    }

    @Test func aMalformedRequestIsABadRequestAndARefusedPeerIsCountedAndLogged() {
        let shell = started()
        let bad = parse(shell.request("refresh sideways"))
        #expect(bad["ok"] == .bool(false) && bad["code"] == .string("bad-request"))
        #expect(bad["error"]?.string?.hasPrefix("unknown request 'refresh sideways'") == true)
        let effects = shell.send(.refused(count: 1, notice: "refused uid 65534 (pid 77): not root, the daemon's user, or in its ops group"))
        #expect(TestShell.logs(effects) == ["control socket: refused uid 65534 (pid 77): not root, the daemon's user, or in its ops group"])
        #expect(shell.core.counters.refusals == 1 && shell.core.counters.requests == 1)
        // Refusals the log does not name are counted all the same, as they happen.
        #expect(TestShell.logs(shell.send(.refused(count: 41, notice: nil))).isEmpty)
        #expect(shell.core.counters.refusals == 42)
        // A summary line counts nothing again: its refusals were counted when they happened.
        _ = shell.send(.refused(count: 0, notice: "41 more peers were refused"))
        #expect(shell.core.counters.refusals == 42)
    }

}

@Suite struct DaemonCoreOutputTests {
    @Test func aFullDiskReplacesNothingAndTheReplySaysDegraded() {
        let shell = TestShell()
        shell.start()
        let good = shell.disk.files
        shell.disk.refuses = { _ in true }
        let reply = try! JSONParser.parse(shell.request("refresh now")!)
        #expect(reply["ok"] == .bool(false) && reply["code"] == .string("not-written"))
        #expect(reply["state"]?["seq"] == .number(0), "the state the files show, not the code that was not written")
        #expect(reply["state"]?["health"] == .string("degraded"))
        #expect(reply["state"]?["reason"] == .string("cannot create /out/current.png: No space left on device"))
        #expect(shell.disk.files == good, "the last good files stay as they were")
        #expect(shell.logs.last == "degraded: cannot create /out/current.png: No space left on device; keeping the last good files and retrying")
        #expect(shell.core.counters.writeFailures == 1)
    }

    @Test func aPartlyFullDiskUpdatesTheHealthInCurrentJSONAboutTheCodeStillOnDisk() {
        let shell = TestShell()
        shell.start()
        let png = shell.disk.files["current.png"]
        let shown = shell.disk.document!
        // Room for current.json alone, not for the image and text beside it.
        shell.disk.refuses = { $0.count > 1 }
        shell.tick(after: 15_000)
        let document = shell.disk.document!
        #expect(document.health == "degraded" && document.reason?.hasPrefix("cannot create") == true)
        #expect(document.url == shown.url && document.window == shown.window, "the JSON still describes the image beside it")
        #expect(shell.disk.files["current.png"] == png)
        // Then metrics.prom alone: a failed write counted, the health degraded.
        #expect(shell.disk.batches.suffix(2) == [["current.json"], ["metrics.prom"]])
        #expect(shell.metrics?.contains("qrcheckin_healthy{venue=\"DEMO\"} 0\n") == true)
        #expect(shell.metrics?.contains("qrcheckin_output_write_failures_total{venue=\"DEMO\"} 1\n") == true)
        let documents = shell.disk.batches.filter { $0.contains("current.json") }.count
        shell.tick(after: 1000)
        #expect(shell.disk.batches.filter { $0.contains("current.json") }.count == documents, "the same health is not written again")
        #expect(shell.disk.batches.last == ["metrics.prom"], "only the failure count moved")
        shell.disk.refuses = nil
        shell.tick(after: 1000)
        #expect(shell.disk.document?.health == "ok" && shell.disk.document?.window == shown.window! + 1)
        #expect(shell.disk.batches.last == ["current.png", "current.txt", "current.json", "metrics.prom"])
        #expect(shell.metrics?.contains("qrcheckin_healthy{venue=\"DEMO\"} 1\n") == true)
    }

    @Test func writtenFilesSayOKAtOnceOnRecoveryNotDegradedFirst() {
        let shell = TestShell()
        shell.start()
        shell.disk.refuses = { _ in true }
        shell.tick(after: 15_000)
        shell.disk.refuses = nil
        let effects = shell.tick(after: 1000)
        #expect(TestShell.writes(effects).count == 1, "one write on recovery, not one degraded and one ok")
        #expect(TestShell.writes(effects).first?.state.health == .ok)
        #expect(shell.core.state.health == .ok)
    }

    @Test func aRemovedOutputDirectoryGetsEveryFileBackAtOnce() {
        let shell = TestShell()
        shell.start()
        shell.disk.files = [:]
        let effects = shell.send(.outputsGone)
        #expect(TestShell.writes(effects).map(\.files) == [OutputFile.all])
        #expect(Set(shell.disk.files.keys) == Set(OutputFile.names))
    }

    @Test func aRemovedSocketIsClosedAtOnceAndReboundAtTheNextTickBeforeAnyWrite() {
        let shell = TestShell()
        shell.start()
        let gone = shell.send(.socketGone)
        #expect(gone.first == .closeSocket)
        #expect(TestShell.timers(gone) == [WallTime(seconds: 1_800_000_001)], "the next tick comes within a second")
        #expect(shell.send(.socketGone).filter { $0 == .closeSocket }.isEmpty)
        shell.disk.refuses = { _ in true }
        shell.send(.outputsFailed(reason: "ignored: nothing in flight"))
        shell.disk.refuses = nil
        let tick = shell.tick(after: 15_000)
        #expect(tick.first == .rebindSocket)
        #expect(TestShell.logs(tick).first == "recreated the control socket /out/control.sock")
        #expect(tick.firstIndex(of: .rebindSocket)! < tick.firstIndex { if case .writeOutputs = $0 { true } else { false } }!)
    }
}

@Suite struct DaemonCoreClockTests {
    @Test func theClockSetBackKeepsTheCodeAndSaysDegradedInTheFilesUntilItCatchesUp() {
        let shell = TestShell(seconds: 1_800_000_020)
        shell.start()
        let shown = shell.disk.document!
        shell.clock.set(seconds: 1_800_000_000 - 600)
        let back = shell.tick(clockWasSet: true)
        #expect(TestShell.logs(back).first == "the wall clock was set; re-checking the window")
        #expect(TestShell.logs(back).last?.hasPrefix("degraded: the wall clock moved back; waiting until ") == true)
        #expect(shell.disk.document?.url == shown.url && shell.disk.document?.health == "degraded")
        #expect(TestShell.timers(back) == [WallTime(seconds: 1_800_000_000 - 600 + 15)])
        shell.clock.set(seconds: 1_800_000_030)
        let caughtUp = shell.tick(clockWasSet: true)
        #expect(shell.disk.document?.window == 120_000_002 && shell.disk.document?.health == "ok")
        #expect(TestShell.logs(caughtUp).last == "healthy again: outputs are current")
    }

    @Test func theClockSetForwardRotatesAtOnce() {
        let shell = TestShell()
        shell.start()
        let jumped = shell.tick(after: 3_600_000, clockWasSet: true)
        #expect(shell.disk.document?.window == 120_000_240)
        #expect(TestShell.timers(jumped) == [WallTime(seconds: 1_800_003_615)])
    }
}

@Suite struct DaemonCoreReloadTests {
    func reload(_ shell: TestShell, _ setup: DaemonSetup) -> [DaemonEffect] {
        shell.reloads = [setup]
        return shell.send(.signal(.hangup))
    }

    @Test func restartOnlySettingsAreKeptAndNamed() {
        let shell = TestShell()
        shell.start()
        let effects = reload(shell, TestShell.setup(outputDirectory: "/elsewhere"))
        #expect(TestShell.logs(effects) == ["reload: output-dir changes take effect at the next restart",
                                            "reload: socket changes take effect at the next restart",
                                            "reloaded configuration: venue DEMO, period 15s"])
        #expect(shell.core.setup.outputDirectory == "/out" && shell.core.setup.socketPath == "/out/control.sock")
        #expect(TestShell.writes(effects).isEmpty, "nothing about the code changed")
    }

    @Test func switchingVenuesABANeverRepeatsACode() {
        let shell = TestShell()
        shell.start()
        var seen: [String] = [shell.disk.document!.url!]
        for venue in ["HALL-B", "DEMO", "HALL-B", "DEMO"] {
            reload(shell, TestShell.setup(venue: venue))
            #expect(shell.disk.document?.venue == venue)
            seen.append(shell.disk.document!.url!)
        }
        #expect(Set(seen).count == seen.count, "\(seen)")
        #expect(shell.core.counters.rotations[.reload] == 4)
    }

    @Test func aNewPeriodRearmsTheTimerAndANewLookRedrawsTheSameCode() {
        let shell = TestShell(seconds: 1_800_000_004)
        shell.start()
        let period = reload(shell, TestShell.setup(period: 60))
        #expect(TestShell.timers(period) == [WallTime(seconds: 1_800_000_060)])
        #expect(shell.disk.document?.period == 60)
        let url = shell.disk.document?.url
        let look = reload(shell, TestShell.setup(period: 60, scale: 3))
        #expect(TestShell.writes(look).count == 1 && TestShell.writes(look).first?.look.scale == 3)
        #expect(shell.disk.document?.url == url)
    }

    @Test func aChangedSecretIsUsedFromThenOnWithoutAGap() {
        let shell = TestShell()
        shell.start()
        let other = try! MasterSecret(bytes: Array(repeating: 9, count: 32))
        let effects = reload(shell, TestShell.setup(secret: other))
        #expect(shell.core.setup.codes.keys == .master(other))
        #expect(TestShell.writes(effects).count == 1, "the new code replaces the old one in one step")
        #expect(shell.disk.document?.sequence == 1)
        #expect(TestShell.logs(effects).contains("issued a fresh code (reload, seq 1)"), "named for its cause, not 'on request'")
    }
}

@Suite struct OutputRendererTests {
    @Test func rendersTheFramesFilesInOrderWithTheDocumentAsGiven() throws {
        let state = CheckInState(phase: .showing(FakeIssuer(period: .standard).code(window: 1, sequence: 0)),
                                 settings: OperatorSettings(), health: .ok, secondsLeft: 9, updatedAt: WallTime(seconds: 15))
        let frame = OutputFrame(state: state, files: OutputFile.all, look: OutputLook(), document: "{\"x\":1}", counters: DaemonCounters())
        let files = try OutputRenderer(encoder: TinyEncoder(), png: BlankPNG()).files(for: frame)
        #expect(files.map(\.name) == ["current.png", "current.txt", "current.json", "metrics.prom"])
        #expect(files[2].bytes == Array("{\"x\":1}\n".utf8))
        #expect(String(decoding: files[1].bytes, as: UTF8.self).hasSuffix("12현34규\nexpires 1970-01-01T00:00:30Z\n"))
    }
}
