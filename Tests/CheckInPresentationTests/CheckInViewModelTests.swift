import CheckInDomain
import CheckInPresentation
import Testing

@Suite struct CheckInViewModelTests {
    let clock = TestClock(seconds: 1_800_000_000)  // a window boundary for 15 s
    let store = MemoryStore()

    func makeModel(period: Int = 15, settings: OperatorSettings = OperatorSettings()) -> CheckInViewModel {
        CheckInViewModel(issuer: FakeIssuer(period: try! RotationPeriod(seconds: period)), clock: clock,
                         store: store, settings: settings)
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
        let model = makeModel()
        var seen: [Int64] = []
        model.bind { state in
            if let code = state.code, seen.last != code.window { seen.append(code.window) }
        }
        // Tick every 250 ms for an hour; a code must change exactly when its window ends.
        for _ in 0..<(3600 * 4) {
            clock.advance(milliseconds: 250)
            model.send(.timerTicked)
            let code = model.state.code!
            #expect(code.issuedAt <= clock.now().seconds && clock.now().seconds < code.expiresAt)
        }
        #expect(seen.count == 241)
        #expect(seen == Array(120_000_000...120_000_240))
    }

    @Test func theNextBoundaryIsTheEndOfTheWindow() {
        clock.advance(milliseconds: 3_400)
        let model = makeModel()
        #expect(model.nextBoundary() == WallTime(seconds: 1_800_000_015))
        clock.advance(milliseconds: 11_599)
        #expect(model.nextBoundary() == WallTime(seconds: 1_800_000_015))
        clock.advance(milliseconds: 1)
        #expect(model.nextBoundary() == WallTime(seconds: 1_800_000_030))
    }

    @Test func aShakeIssuesTheNextSequenceWhenOnAndIsIgnoredWhenOff() {
        let model = makeModel()
        var notices: [CheckInNotice] = []
        model.bindNotices { notices.append($0) }
        model.send(.shakeRequested)
        #expect(model.state.code?.sequence == 1)
        model.send(.shakeModeSet(.off))
        model.send(.shakeRequested)
        #expect(model.state.code?.sequence == 1)
        #expect(notices == [.shakeIgnored])
        #expect(store.saved == OperatorSettings(shake: .off, refresh: .auto))
        model.send(.shakeModeToggled)
        #expect(model.state.settings.shake == .on)
    }

    @Test func pauseShowsNoCodeAndResumeNeverRepeatsOne() {
        let model = makeModel()
        model.send(.refreshModeSet(.paused))
        #expect(model.state.phase == .paused)
        #expect(model.state.secondsLeft == 0)
        clock.advance(milliseconds: 30_000)
        model.send(.timerTicked)
        #expect(model.state.phase == .paused)
        model.send(.refreshRequested)
        #expect(model.state.phase == .paused)
        model.send(.refreshModeSet(.auto))
        #expect(model.state.code?.window == 120_000_002)
        #expect(model.state.code?.sequence == 0)
        model.send(.refreshModeSet(.paused))
        model.send(.refreshModeSet(.auto))
        #expect(model.state.code?.sequence == 1, "same window after a pause: a new sequence, not the old code")
        #expect(store.saved == OperatorSettings(shake: .on, refresh: .auto))
    }

    @Test func refreshNowForcesARotation() {
        let model = makeModel()
        model.send(.refreshRequested)
        model.send(.refreshRequested)
        #expect(model.state.code?.sequence == 2)
        clock.advance(milliseconds: 15_000)
        model.send(.timerTicked)
        #expect(model.state.code?.sequence == 0)
        #expect(model.state.code?.window == 120_000_001)
    }

    @Test func aForwardClockJumpRotatesAtOnce() {
        let model = makeModel()
        clock.advance(milliseconds: 3_600_000)
        model.send(.timerTicked)
        #expect(model.state.code?.window == 120_000_240)
        #expect(model.state.health == .ok)
    }

    @Test func aBackwardClockJumpNeverReissuesAnOldCode() {
        clock.advance(milliseconds: 20_000)
        let model = makeModel()
        let shown = model.state.code
        clock.set(seconds: 1_800_000_000 - 600)
        model.send(.timerTicked)
        #expect(model.state.code == shown)
        #expect(model.state.health.name == "degraded")
        model.send(.shakeRequested)
        #expect(model.state.code == shown, "a shake must not issue an old window either")
        clock.set(seconds: 1_800_000_030)
        model.send(.timerTicked)
        #expect(model.state.code?.window == 120_000_002)
        #expect(model.state.health == .ok)
    }

    @Test func outputFailuresDegradeUntilAWriteSucceeds() {
        let model = makeModel()
        model.send(.outputFailed(reason: "cannot write /run/q/current.png: No space left on device"))
        #expect(model.state.health == .degraded(reason: "cannot write /run/q/current.png: No space left on device"))
        model.send(.outputSucceeded)
        #expect(model.state.health == .ok)
    }

    @Test func savedSettingsAreTheStartingSettings() {
        let model = makeModel(settings: OperatorSettings(shake: .off, refresh: .paused))
        #expect(model.state.phase == .paused)
        #expect(model.state.settings.shake == .off)
    }

    @Test func aFailedSaveKeepsTheNewSettingInMemoryAndSaysSo() {
        let model = makeModel()
        var notices: [CheckInNotice] = []
        model.bindNotices { notices.append($0) }
        store.failing = true
        model.send(.shakeModeSet(.off))
        #expect(model.state.settings.shake == .off)
        #expect(store.saved == nil)
        #expect(notices == [.settingsNotSaved(reason: "cannot write /state/settings: No space left on device")])
    }

    @Test func observersMaySendInputsWhileBeingNotified() {
        let model = makeModel()
        var states: [CheckInState] = []
        model.bind { state in
            states.append(state)
            if state.health == .ok, state.code?.sequence == 1 { model.send(.outputFailed(reason: "disk")) }
        }
        model.send(.shakeRequested)
        #expect(states.map(\.health.name) == ["ok", "ok", "degraded"])
    }

    @Test func stoppingShowsNoCode() {
        let model = makeModel()
        model.send(.stopRequested)
        #expect(model.state.phase == .stopped)
        model.send(.shakeRequested)
        clock.advance(milliseconds: 15_000)
        model.send(.timerTicked)
        #expect(model.state.phase == .stopped)
    }
}

@Suite struct CheckInViewModelReloadTests {
    @Test func aNewIssuerShowsItsCodeAtOnceWithoutRepeatingASequence() {
        let clock = TestClock(seconds: 1_800_000_000)
        let model = CheckInViewModel(issuer: FakeIssuer(period: .standard), clock: clock, store: MemoryStore(),
                                     settings: OperatorSettings())
        model.replaceIssuer(FakeIssuer(period: .standard))
        #expect(model.state.code?.sequence == 1)
        model.replaceIssuer(FakeIssuer(period: try! RotationPeriod(seconds: 30)))
        #expect(model.state.code?.window == 60_000_000)
        #expect(model.state.code?.sequence == 0)
        model.replaceIssuer(FakeIssuer(period: .standard))
        #expect(model.state.code?.window == 120_000_000)
        #expect(model.state.code?.sequence == 2, "back to the first issuer: its sequence goes on, no code repeats")
    }
}
