import KioskCore
import SharedDomain
import Testing

/// Rebinding the control socket: at once after a removal, with growing pauses while it keeps
/// disappearing or failing (issue 25: a socket rebound every second gave an attacker a try a second).
@Suite struct SocketRebindingTests {
    @Test func pausesDoubleFromOneSecondToThirty() {
        #expect((1...8).map(SocketRebinding.pause(before:)) == [0, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])
    }

    @Test func aSocketRemovedOverAndOverIsReboundAFewTimesAMinuteNotEverySecond() {
        let shell = TestShell()
        shell.start()
        var rebinds: [Int64] = []
        // Someone removes the socket at once each time it is back, for two minutes.
        for second in 1...120 {
            shell.send(.socketGone)
            let tick = shell.tick(after: 1000)
            if tick.contains(.rebindSocket) { rebinds.append(Int64(second)) }
        }
        #expect(rebinds.first == 1, "the first removal is answered at the next tick")
        #expect(rebinds.count <= 10, "\(rebinds)")
        let gaps = zip(rebinds.dropFirst(), rebinds).map { $0 - $1 }
        #expect(gaps == gaps.sorted() && gaps.last == 30, "\(gaps)")
    }

    @Test func aSocketThatStayedAMinuteStartsAfreshAndFailuresAreLoggedWithTheNextTry() {
        let shell = TestShell()
        shell.start()
        shell.socketRebindFails = true
        shell.send(.socketGone)
        let first = shell.tick(after: 1000)
        #expect(first.contains(.rebindSocket))
        #expect(TestShell.logs(first).contains("cannot recreate the control socket: cannot listen on /out/control.sock: refused; trying again in 1s"))
        #expect(!shell.tick(after: 500).contains(.rebindSocket), "not before the pause is over")
        let second = shell.tick(after: 600)
        #expect(second.contains(.rebindSocket))
        #expect(TestShell.logs(second).contains { $0.hasSuffix("trying again in 2s") })
        shell.socketRebindFails = false
        #expect(shell.tick(after: 2000).contains(.rebindSocket))
        // Up for more than a minute: the next removal is a first one again.
        _ = shell.tick(after: 61_000)
        shell.send(.socketGone)
        #expect(shell.tick(after: 1000).contains(.rebindSocket))
    }

    @Test func aWallClockSetBackDoesNotHoldTheRebindOff() {
        var rebinding = SocketRebinding()
        let now = WallTime(seconds: 1_800_000_000)
        let wentDown = rebinding.gone(at: now)
        #expect(wentDown)
        rebinding.attempted(at: now)
        rebinding.attempted(at: now)
        #expect(!rebinding.isDue(at: WallTime(seconds: 1_800_000_001)))
        #expect(rebinding.isDue(at: WallTime(seconds: 1_799_996_400)), "an hour back")
    }
}
