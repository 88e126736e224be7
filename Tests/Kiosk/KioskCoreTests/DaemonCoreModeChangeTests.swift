import KioskCore
import SharedDomain
import SharedJSON
import Testing

/// Who set the modes and from where (issue 39): a request may name its actor (`by
/// console:mina`, `by local:alice`); the daemon records the latest change with the settings,
/// saves it, and every output says it. The latest change wins, wherever it came from.
@Suite struct DaemonCoreModeChangeTests {
    func parse(_ reply: String?) -> JSONValue { (try? JSONParser.parse(reply ?? "")) ?? .null }

    @Test func aConsoleSteerIsRecordedSavedAndShownThenALocalChangeWins() {
        let shell = TestShell()
        shell.start()
        let paused = parse(shell.request("refresh pause by console:mina"))
        #expect(paused["ok"] == .bool(true))
        #expect(paused["state"]?["state"] == .string("paused"))
        #expect(paused["state"]?["modeSource"] == .string("console") && paused["state"]?["modeChangedBy"] == .string("mina"))
        #expect(paused["state"]?["modeChangedAt"] == .number(1_800_000_000))
        let change = ModeChange(source: .console, by: OperatorName("mina"), at: 1_800_000_000)
        #expect(shell.memoryStore.saved == OperatorSettings(shake: .on, refresh: .paused, change: change), "saved with the modes")
        #expect(shell.disk.document?.modeChange == change, "current.json says it")
        #expect(shell.logs.contains("control: 'refresh pause' by console:mina from uid 0"))
        // Later, locally: the latest change wins.
        shell.clock.advance(milliseconds: 60_000)
        let resumed = parse(shell.request("refresh auto by local:alice", uid: 1000))
        #expect(resumed["state"]?["state"] == .string("running"))
        #expect(shell.disk.document?.modeChange == ModeChange(source: .local, by: OperatorName("alice"), at: 1_800_000_060))
    }

    @Test func aSettingThatChangesNothingStillSaysWhoSetItLast() {
        let shell = TestShell()
        shell.start()
        _ = shell.request("refresh pause by local:alice")
        _ = shell.request("refresh pause by console:mina")
        #expect(shell.disk.document?.modeChange?.source == .console && shell.disk.document?.refresh == .paused)
    }

    @Test func aRequestThatNamesNobodyIsLocalAndAnUnknownActorIsRefused() {
        let shell = TestShell()
        shell.start()
        _ = shell.request("shake off")
        #expect(shell.disk.document?.modeChange == ModeChange(source: .local, by: nil, at: 1_800_000_000))
        let bad = parse(shell.request("shake on by daemon"))
        #expect(bad["ok"] == .bool(false) && bad["code"] == .string("bad-request"))
        #expect(bad["error"]?.string?.contains("unknown actor 'daemon'") == true)
        #expect(parse(shell.request("shake on by console:mina kim"))["ok"] == .bool(false), "a name is one word")
        #expect(shell.disk.document?.shake == .off, "a refused request changes nothing")
    }

    @Test func aFreshCodeOrAShakeIsNoModeChange() {
        let shell = TestShell()
        shell.start()
        _ = shell.request("refresh pause by console:mina")
        _ = shell.request("refresh auto by console:mina")
        let before = shell.disk.document?.modeChange
        #expect(parse(shell.request("refresh now by console:mina"))["ok"] == .bool(true))
        #expect(parse(shell.request("shake by local:alice"))["ok"] == .bool(true))
        #expect(shell.disk.document?.modeChange == before)
        #expect(shell.disk.document?.sequence == 3, "resumed (1), a fresh code (2), a shake (3)")
    }

    @Test func theDaemonPausingItselfSaysSo() {
        let shell = TestShell()
        shell.start()
        shell.memoryStore.failing = true
        shell.tick(after: 15_000)
        #expect(shell.disk.document?.refresh == .paused)
        #expect(shell.disk.document?.modeChange == ModeChange(source: .daemon, by: nil, at: 1_800_000_015))
        // A damaged settings file starts paused, and says the daemon did it.
        let damaged = TestShell(saved: .unreadable(reason: "bad line"))
        damaged.start()
        #expect(damaged.core.state.settings.change?.source == .daemon)
    }
}
