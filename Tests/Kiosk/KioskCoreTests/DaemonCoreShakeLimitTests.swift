import KioskCore
import SharedDomain
import SharedJSON
import Testing

/// Shakes are honoured at most once a second (`ShakeLimit`), on the core's test clock.
@Suite struct DaemonCoreShakeLimitTests {
    func started() -> TestShell {
        let shell = TestShell(seconds: 1_800_000_001)
        shell.start()
        return shell
    }

    @Test func aFloodOfShakesWritesOnceASecond() {
        // Before: 400 shakes in a second were 400 codes, 1,600 fsynced files and 400 log lines.
        let shell = started()
        let before = TestShell.writes(shell.effects).count
        for _ in 0..<400 {
            shell.send(.signal(.user1))
            shell.clock.advance(milliseconds: 2)
        }
        let frames = TestShell.writes(shell.effects).dropFirst(before).filter { $0.files.contains(.png) }
        #expect(frames.count == 1, "the first shake only: the rest came within its second")
        #expect(shell.disk.document?.sequence == 1)
        #expect(shell.core.counters.rotations[.shake] == 1 && shell.core.counters.coalescedShakes == 399)
        #expect(shell.logs.filter { $0.hasPrefix("issued a fresh code") } == ["issued a fresh code (shake, seq 1)"])
        // Past the second, the next shake is honoured and says how many were coalesced.
        shell.clock.advance(milliseconds: 200)
        let next = shell.send(.signal(.user1))
        #expect(TestShell.logs(next).first == "issued a fresh code (shake, seq 2; 399 more shakes within a second of the last were coalesced)")
        #expect(shell.disk.document?.sequence == 2)
    }

    @Test func aCoalescedShakeOverTheSocketIsAnsweredWithTheFreshCode() throws {
        let shell = started()
        let first = try JSONParser.parse(Array(shell.request("shake")!.utf8))
        shell.clock.advance(milliseconds: 999)
        let writesBefore = TestShell.writes(shell.effects).count
        let logsBefore = shell.logs.count
        let second = try JSONParser.parse(Array(shell.request("shake")!.utf8))
        #expect(second["ok"] == .bool(true))
        #expect(second["state"]?["seq"] == first["state"]?["seq"] && second["state"]?["url"] == first["state"]?["url"],
                "the code the last shake issued, less than a second old")
        #expect(TestShell.writes(shell.effects).count == writesBefore, "nothing written")
        #expect(shell.logs.count == logsBefore, "nothing logged")
        #expect(shell.core.counters.coalescedShakes == 1 && shell.core.counters.requests == 2)
        shell.clock.advance(milliseconds: 1)
        let third = try JSONParser.parse(Array(shell.request("shake")!.utf8))
        #expect(third["state"]?["seq"] == .number(2), "a second after the last honoured shake: a new code")
    }

    @Test func refreshNowIsNotLimitedAndRefusedShakesStayRefused() throws {
        let shell = started()
        shell.send(.signal(.user1))
        for _ in 0..<5 { _ = shell.request("refresh now") }
        #expect(shell.disk.document?.sequence == 6, "an operator's refresh is never coalesced")
        _ = shell.request("shake off")
        let off = try JSONParser.parse(Array(shell.request("shake")!.utf8))
        #expect(off["code"] == .string("shake-off") && shell.core.counters.coalescedShakes == 0)
        _ = shell.request("shake on")
        _ = shell.request("refresh pause")
        let paused = try JSONParser.parse(Array(shell.request("shake")!.utf8))
        #expect(paused["code"] == .string("paused"))
    }

    @Test func aClockSetBackDoesNotLockShakesOut() {
        // A shake "in the future" of the clock (set back an hour) is not within a second of it.
        var limit = ShakeLimit()
        _ = limit.honoured(at: WallTime(seconds: 100))
        let earlier = limit.coalesces(at: WallTime(seconds: 99))
        let within = limit.coalesces(at: WallTime(milliseconds: 100_999))
        let after = limit.coalesces(at: WallTime(seconds: 101))
        #expect(!earlier && within && !after)
        #expect(limit.honoured(at: WallTime(seconds: 101)) == 1, "the one within the second")
    }

    @Test func theMetricCountsCoalescedShakes() {
        let shell = started()
        shell.send(.signal(.user1))
        shell.send(.signal(.user1))
        shell.tick(after: 1000)
        #expect(shell.metrics?.contains("qrcheckin_coalesced_shakes_total{venue=\"DEMO\"} 1\n") == true)
    }
}
