import KioskCore
import SharedDomain
import Testing

@Suite struct CheckInViewModelTests {
    let clock = TestClock(seconds: 1_800_000_000)  // a window boundary for 15 s

    func makeModel(period: Int = 15, settings: OperatorSettings = OperatorSettings()) -> CheckInViewModel {
        CheckInViewModel(issuer: FakeIssuer(period: try! RotationPeriod(seconds: period)), settings: settings, now: clock.now())
    }

    @Test func startsShowingTheCodeOfTheCurrentWindow() {
        clock.advance(milliseconds: 7_250)
        let model = makeModel()
        #expect(model.state == CheckInState(
            phase: .showing(FakeIssuer(period: .standard).code(window: 120_000_000, sequence: 0)),
            settings: OperatorSettings(shake: .on, refresh: .auto), health: .ok, secondsLeft: 8,
            updatedAt: clock.now()))
    }

    @Test func anHourOfTicksRotatesExactlyAtEachBoundary() {
        var model = makeModel()
        var seen: [Int64] = [120_000_000]
        // Tick every 250 ms for an hour; a code must change exactly when its window ends.
        for _ in 0..<(3600 * 4) {
            clock.advance(milliseconds: 250)
            let notices = model.send(.timerTicked, at: clock.now())
            let code = model.state.code!
            #expect(code.issuedAt <= clock.now().seconds && clock.now().seconds < code.expiresAt)
            for case let .issued(issued, cause) in notices {
                #expect(cause == .window)
                seen.append(issued.window)
            }
        }
        #expect(seen == Array(120_000_000...120_000_240))
    }

    @Test func theNextBoundaryIsTheEndOfTheWindow() {
        clock.advance(milliseconds: 3_400)
        let model = makeModel()
        #expect(model.nextBoundary(after: clock.now()) == WallTime(seconds: 1_800_000_015))
        clock.advance(milliseconds: 11_599)
        #expect(model.nextBoundary(after: clock.now()) == WallTime(seconds: 1_800_000_015))
        clock.advance(milliseconds: 1)
        #expect(model.nextBoundary(after: clock.now()) == WallTime(seconds: 1_800_000_030))
    }

    @Test func aShakeIssuesTheNextSequenceWhenOnAndIsIgnoredWhenOff() {
        var model = makeModel()
        let now = clock.now()
        #expect(model.send(.shakeRequested, at: now) == [.issued(model.state.code!, cause: .shake)])
        #expect(model.state.code?.sequence == 1)
        #expect(model.send(.shakeModeSet(.off), at: now)
            == [.settingsChanged(OperatorSettings(shake: .off, refresh: .auto, change: ModeChange(source: .local, by: nil, at: now.seconds)))])
        #expect(model.send(.shakeRequested, at: now) == [.shakeIgnored])
        #expect(model.state.code?.sequence == 1)
        model.send(.shakeModeToggled, at: now)
        #expect(model.state.settings.shake == .on)
    }

    @Test func pauseShowsNoCodeAndResumeNeverRepeatsOne() {
        var model = makeModel()
        model.send(.refreshModeSet(.paused), at: clock.now())
        #expect(model.state.phase == .paused)
        #expect(model.state.secondsLeft == 0)
        clock.advance(milliseconds: 30_000)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.phase == .paused)
        model.send(.refreshRequested, at: clock.now())
        #expect(model.state.phase == .paused)
        model.send(.refreshModeSet(.auto), at: clock.now())
        #expect(model.state.code?.window == 120_000_002)
        #expect(model.state.code?.sequence == 0)
        model.send(.refreshModeSet(.paused), at: clock.now())
        model.send(.refreshModeSet(.auto), at: clock.now())
        #expect(model.state.code?.sequence == 1, "same window after a pause: a new sequence, not the old code")
    }

    @Test func refreshNowForcesARotation() {
        var model = makeModel()
        model.send(.refreshRequested, at: clock.now())
        #expect(model.send(.refreshRequested, at: clock.now()) == [.issued(model.state.code!, cause: .refreshNow)])
        #expect(model.state.code?.sequence == 2)
        clock.advance(milliseconds: 15_000)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.code?.sequence == 0)
        #expect(model.state.code?.window == 120_000_001)
    }

    @Test func aForwardClockJumpRotatesAtOnce() {
        var model = makeModel()
        clock.advance(milliseconds: 3_600_000)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.code?.window == 120_000_240)
        #expect(model.state.health == .ok)
    }

    @Test func aBackwardClockJumpNeverReissuesAnOldCode() {
        clock.advance(milliseconds: 20_000)
        var model = makeModel()
        let shown = model.state.code
        clock.set(seconds: 1_800_000_000 - 600)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.code == shown)
        #expect(model.state.health.name == "degraded")
        #expect(model.healthOfWrittenOutputs == model.state.health, "the files say so too")
        model.send(.shakeRequested, at: clock.now())
        #expect(model.state.code == shown, "a shake must not issue an old window either")
        clock.set(seconds: 1_800_000_030)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.code?.window == 120_000_002)
        #expect(model.state.health == .ok)
    }

    @Test func outputFailuresDegradeUntilAWriteSucceeds() {
        var model = makeModel()
        model.send(.outputFailed(reason: "cannot write /run/q/current.png: No space left on device"), at: clock.now())
        #expect(model.state.health == .degraded(reason: "cannot write /run/q/current.png: No space left on device"))
        #expect(model.outputsFailing)
        #expect(model.healthOfWrittenOutputs == .ok, "files that get written are current")
        model.send(.outputSucceeded, at: clock.now())
        #expect(model.state.health == .ok)
    }

    @Test func savedSettingsAreTheStartingSettings() {
        let model = makeModel(settings: OperatorSettings(shake: .off, refresh: .paused))
        #expect(model.state.phase == .paused)
        #expect(model.state.settings.shake == .off)
    }

    @Test func stoppingShowsNoCode() {
        var model = makeModel()
        model.send(.stopRequested, at: clock.now())
        #expect(model.state.phase == .stopped)
        model.send(.shakeRequested, at: clock.now())
        clock.advance(milliseconds: 15_000)
        model.send(.timerTicked, at: clock.now())
        #expect(model.state.phase == .stopped)
    }
}

@Suite struct CheckInViewModelReloadTests {
    @Test func aNewIssuerShowsItsCodeAtOnceWithoutRepeatingASequence() {
        let now = WallTime(seconds: 1_800_000_000)
        var model = CheckInViewModel(issuer: FakeIssuer(period: .standard), settings: OperatorSettings(), now: now)
        #expect(model.replaceIssuer(FakeIssuer(period: .standard), at: now) == [.issued(model.state.code!, cause: .reload)])
        #expect(model.state.code?.sequence == 1)
        model.replaceIssuer(FakeIssuer(period: try! RotationPeriod(seconds: 30)), at: now)
        #expect(model.state.code?.window == 60_000_000)
        #expect(model.state.code?.sequence == 0)
        model.replaceIssuer(FakeIssuer(period: .standard), at: now)
        #expect(model.state.code?.window == 120_000_000)
        #expect(model.state.code?.sequence == 2, "back to the first issuer: its sequence goes on, no code repeats")
    }
}
