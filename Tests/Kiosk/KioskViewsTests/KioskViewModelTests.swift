import KioskCore
import KioskViews
import SharedDomain
import SharedQR
import SharedText
import Testing

/// An encoder that returns a fixed irregular symbol of a given version, like libqrencode would.
struct FakeQREncoder: QREncoding {
    var version = 4
    func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix {
        let size = 17 + 4 * version
        let seed = text.unicodeScalars.reduce(0) { $0 &+ Int($1.value) }
        return QRMatrix(version: version, size: size, modules: (0..<size * size).map { ($0 &* 7919 &+ seed) % 3 == 0 })
    }
}

enum KioskFixtures {
    static let expiresAt: Int64 = 1_800_000_015

    static func document(_ overrides: String = "") -> StateDocument {
        var fields: [String: String] = [
            "version": "1", "state": "\"running\"", "venue": "\"DEMO\"",
            "url": "\"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/1AAAAAABVQYHUCAAAAAAOBS6XKGJS27U4W7DK6JER\"",
            "token": "\"T\"", "safeNumber": "\"12현34규\"", "window": "1", "seq": "0",
            "issuedAt": "1800000000", "expiresAt": "\(expiresAt)", "period": "15", "shake": "\"on\"",
            "refresh": "\"auto\"", "health": "\"ok\"", "reason": "null", "updatedAt": "1800000000", "pid": "42",
        ]
        for pair in overrides.split(separator: ",") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            fields[parts[0]] = parts[1]
        }
        let json = "{" + fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        return try! StateDocument(parsing: Array(json.utf8))
    }

    static func options(_ style: TerminalStyle = .ansi, _ language: Language = .ko, hangul: Bool = true) -> KioskOptions {
        KioskOptions(style: style, language: language, color: true, hangul: hangul, outputDirectory: "/run/qrcheckin")
    }

    static func model(_ options: KioskOptions = options(), size: TerminalSize = TerminalSize(columns: 80, rows: 24),
                      millisecondsBeforeExpiry: Int64 = 7000, alive: Bool = true, version: Int = 4,
                      document: StateDocument? = document()) -> KioskViewModel {
        let now = WallTime(milliseconds: expiresAt * 1000 - millisecondsBeforeExpiry)
        var model = KioskViewModel(options: options, size: size, now: now, encoder: FakeQREncoder(version: version))
        if let document {
            model.handle(.documentRead(document))
            model.handle(.clockTicked(now, daemonAlive: alive))
        }
        return model
    }
}

@Suite struct KioskViewModelTests {
    @Test func theDefaultCodeFits80x24WithItsQuietZone() {
        let screen = KioskFixtures.model().screen
        #expect(screen.lines.count == 24)
        // 33 modules + 2 x 4 quiet = 41 columns, 21 half-block rows, then 3 rows of text.
        let qrRows = screen.lines.filter { $0.contains("\u{1B}[0;30;107m") }
        #expect(qrRows.count == 21)
        #expect(qrRows.allSatisfy { DisplayWidth.of($0) == 19 + 41 })  // centred: (80 - 41) / 2 columns of padding
        #expect(screen.text.contains { $0.contains("안심번호  1 2 현 3 4 규") })
        #expect(screen.text.contains { $0.contains("남은 시간 7초 | 흔들기 켜짐 | 자동 새로고침") })
        #expect(screen.lines.allSatisfy { DisplayWidth.of($0) <= 80 })
    }

    @Test func theSecondsAreRedAndRoundedUp() {
        let model = KioskFixtures.model(millisecondsBeforeExpiry: 6500)
        #expect(model.screen.lines.contains { $0.contains("남은 시간 \u{1B}[1;31m7초\u{1B}[0m") })
        var english = KioskFixtures.model(KioskFixtures.options(.ansi, .en))
        english.handle(.clockTicked(WallTime(seconds: KioskFixtures.expiresAt - 3), daemonAlive: true))
        #expect(english.screen.text.contains { $0.contains("Time left 3s | shake on | auto refresh") })
    }

    @Test func tooSmallNamesTheSizeItNeeds() {
        var model = KioskFixtures.model()
        model.handle(.resized(TerminalSize(columns: 60, rows: 20)))
        #expect(model.screen.text.contains { $0.contains("필요 41x24, 현재 60x20") })
        #expect(!model.screen.lines.contains { $0.contains("▀") })
        let english = KioskFixtures.model(KioskFixtures.options(.utf8, .en), size: TerminalSize(columns: 40, rows: 30))
        #expect(english.screen.text.contains { $0.contains("needs 41x24, is 40x30") })
    }

    @Test func asciiFallsBackToAQuietZoneOfTwo() {
        let tight = KioskFixtures.model(KioskFixtures.options(.ascii), size: TerminalSize(columns: 74, rows: 40))
        // The first dark row comes after the quiet zone: 2 rows here, 4 where there is room.
        #expect(tight.screen.text.firstIndex { $0.contains("#") } == 2)
        let roomy = KioskFixtures.model(KioskFixtures.options(.ascii), size: TerminalSize(columns: 82, rows: 44))
        #expect(roomy.screen.text.firstIndex { $0.contains("#") } == 4)
        #expect(roomy.screen.text.filter { $0.contains("#") }.count == 33)
        let small = KioskFixtures.model(KioskFixtures.options(.ascii, .en), size: TerminalSize(columns: 80, rows: 24))
        #expect(small.screen.text.contains { $0.contains("needs 74x40, is 80x24") })
    }

    @Test func staleAfterTheGracePeriodOrWhenTheDaemonIsGone() {
        var model = KioskFixtures.model()
        // Stale once more than the 5 s grace has passed: the same rule `status` applies.
        model.handle(.clockTicked(WallTime(milliseconds: (KioskFixtures.expiresAt + 6) * 1000 - 1), daemonAlive: true))
        #expect(model.status == .showing(KioskCode(url: KioskFixtures.document().url!, safeNumber: "12현34규",
                                                     secondsLeft: 0, shake: .on, warning: nil)))
        model.handle(.clockTicked(WallTime(seconds: KioskFixtures.expiresAt + 6), daemonAlive: true))
        #expect(model.status == .stale(.expired(updatedAt: 1_800_000_000)))
        #expect(!model.screen.lines.contains { $0.contains("▀") })
        #expect(KioskFixtures.model(alive: false).status == .stale(.daemonGone(pid: 42)))
    }

    @Test func pausedStoppedMissingAndUnreadableShowNoCode() {
        let paused = KioskFixtures.model(document: KioskFixtures.document(
            "state=\"paused\",url=null,safeNumber=null,issuedAt=null,expiresAt=null,refresh=\"paused\""))
        #expect(paused.status == .paused(shake: .on))
        #expect(paused.screen.text.contains("체크인 일시 중지".centred(in: 80)))
        let stopped = KioskFixtures.model(document: KioskFixtures.document("state=\"stopped\",url=null"))
        #expect(stopped.status == .notRunning(stoppedAt: 1_800_000_000))
        var missing = KioskFixtures.model(document: nil)
        #expect(missing.status == .notRunning(stoppedAt: nil))
        #expect(missing.screen.text.contains { $0.contains("/run/qrcheckin/current.json") })
        missing.handle(.documentUnreadable("unknown schema version 2"))
        #expect(missing.screen.text.contains { $0.contains("unknown schema version 2") })
        for model in [paused, stopped, missing] {
            #expect(!model.screen.lines.contains { $0.contains("▀") || $0.contains("▄") })
        }
    }

    @Test func degradedShowsTheCodeAndAWarning() {
        let model = KioskFixtures.model(document: KioskFixtures.document("health=\"degraded\",reason=\"disk full\""))
        #expect(model.screen.lines.contains { $0.contains("▀") })
        #expect(model.screen.text.contains { $0.contains("경고: disk full") })
        // The warning takes the reserved third row: the QR does not move.
        let healthy = KioskFixtures.model()
        #expect(zip(model.screen.lines, healthy.screen.lines).filter { $0 != $1 }.count == 1)
    }

    @Test func anUnsynchronisedClockShowsTheCodeWithAWarningAndWaitingShowsNone() {
        func document(_ overrides: String = "", synchronized: Bool) -> StateDocument {
            var document = KioskFixtures.document(overrides)
            document.clock = ClockSync(synchronized: synchronized, maxErrorMicroseconds: synchronized ? 1_000_000 : 16_000_000)
            return document
        }
        let model = KioskFixtures.model(document: document(synchronized: false))
        #expect(model.screen.lines.contains { $0.contains("▀") })
        #expect(model.screen.text.contains { $0.contains("경고: 시계가 동기화되지 않음 (±16초)") })
        let english = KioskFixtures.model(KioskFixtures.options(.ansi, .en), document: document(synchronized: false))
        #expect(english.screen.text.contains { $0.contains("Warning: clock not synchronised (±16s)") })
        let synced = KioskFixtures.model(document: document(synchronized: true))
        #expect(!synced.screen.text.contains { $0.contains("경고") })
        let waitingDocument = document("state=\"waiting\",url=null,safeNumber=null,issuedAt=null,expiresAt=null", synchronized: false)
        let waiting = KioskFixtures.model(document: waitingDocument)
        #expect(waiting.status == .waitingForClock)
        #expect(waiting.screen.text.contains("시계 동기화를 기다리는 중".centred(in: 80)))
        #expect(!waiting.screen.lines.contains { $0.contains("▀") || $0.contains("▄") })
        #expect(KioskFixtures.model(alive: false, document: waitingDocument).status == .stale(.daemonGone(pid: 42)))
    }

    @Test func aClockOfTheWrongShapeIsRefused() {
        for bad in ["1", "{\"synchronized\":\"no\",\"maxErrorSeconds\":1}", "{\"synchronized\":true,\"maxErrorSeconds\":-1}"] {
            let json = "{\"version\":1,\"state\":\"paused\",\"venue\":\"DEMO\",\"period\":15,\"shake\":\"on\",\"refresh\":\"paused\","
                + "\"health\":\"ok\",\"updatedAt\":1,\"pid\":1,\"clock\":" + bad + "}"
            #expect(throws: StateDocumentError.self) { try StateDocument(parsing: Array(json.utf8)) }
        }
    }

    @Test func withoutHangulTheSyllablesAreRomanized() {
        let model = KioskFixtures.model(KioskFixtures.options(.utf8, .en, hangul: false))
        #expect(model.screen.text.contains { $0.contains("Safe number  1 2 hyeon 3 4 gyu") })
    }
}

@Suite struct KioskScreenDiffTests {
    @Test func theFirstFrameIsDrawnWholeAndAnUnchangedOneNotAtAll() {
        let screen = KioskFixtures.model().screen
        let first = KioskScreenDiff.update(from: nil, to: screen)
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(KioskScreenDiff.update(from: screen, to: screen) == "")
    }

    @Test func aTickRewritesOnlyTheCountdownRow() {
        var model = KioskFixtures.model()
        let before = model.screen
        model.handle(.clockTicked(WallTime(seconds: KioskFixtures.expiresAt - 6), daemonAlive: true))
        let update = KioskScreenDiff.update(from: before, to: model.screen)
        #expect(update.split(separator: "\u{1B}[", omittingEmptySubsequences: true).filter { $0.contains(";1H") }.count == 1)
        #expect(update.contains("6초"))
        #expect(!update.contains("▀") && !update.contains("2J"))
    }

    @Test func aResizeRedrawsEverything() {
        var model = KioskFixtures.model()
        let before = model.screen
        model.handle(.resized(TerminalSize(columns: 100, rows: 30)))
        #expect(KioskScreenDiff.update(from: before, to: model.screen).contains("\u{1B}[2J"))
    }

    @Test func fullWidthRowsAreNotErased() {
        let size = TerminalSize(columns: 4, rows: 2)
        let update = KioskScreenDiff.update(from: nil, to: KioskScreen(size: size, lines: ["abcd", "ab"]))
        #expect(update == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Habcd\u{1B}[0m\u{1B}[2;1Hab\u{1B}[0m\u{1B}[K")
    }
}

@Suite struct KioskTextTests {
    @Test func hangulSyllablesAreTwoColumnsWide() {
        #expect(DisplayWidth.of("12현34규") == 8)
        #expect(DisplayWidth.of("\u{1B}[1;31m7초\u{1B}[0m") == 3)
        #expect(DisplayWidth.of("▀▄█ ") == 4)
    }

    @Test func romanization() {
        #expect(SafeNumberText.romanized("현") == "hyeon")
        #expect(SafeNumberText.romanized("규") == "gyu")
        #expect(SafeNumberText.romanized("가") == "ga")
        #expect(SafeNumberText.romanized("힣") == "hit")
        #expect(SafeNumberText.spaced("12현34규", hangul: true) == "1 2 현 3 4 규")
    }

    @Test func optionsFollowTheEnvironment() {
        func resolve(_ environment: [String: String]) -> KioskOptions {
            KioskOptions.resolve(mode: nil, language: nil, environment: environment, outputDirectory: "/d")
        }
        let utf8 = resolve(["LANG": "ko_KR.UTF-8", "TERM": "xterm"])
        #expect(utf8.style == .ansi && utf8.language == .ko && utf8.hangul && utf8.color)
        let plain = resolve(["LANG": "C"])
        #expect(plain.style == .ascii && plain.language == .en && !plain.hangul)
        #expect(resolve(["LANG": "C.UTF-8", "LC_ALL": "POSIX"]).style == .ascii)  // LC_ALL wins
        let noColor = resolve(["LANG": "C.UTF-8", "NO_COLOR": "1"])
        #expect(noColor.style == .utf8 && !noColor.color)
        let console = resolve(["LANG": "C.UTF-8", "TERM": "linux"])
        #expect(console.style == .ansi && console.language == .en && !console.hangul)
        let explicit = KioskOptions.resolve(mode: .utf8Inverted, language: .ko, environment: ["LANG": "C"], outputDirectory: "/d")
        #expect(explicit.style == .utf8Inverted && explicit.language == .ko)
    }
}

extension String {
    /// The text as the layout centres it on a row of `columns`.
    func centred(in columns: Int) -> String {
        String(repeating: " ", count: (columns - DisplayWidth.of(self)) / 2) + self
    }
}

/// The daemon's liveness arrives with each tick, as the loop probed it: the model asks nobody.
@Suite struct KioskLivenessTests {
    @Test func aDaemonThatDiesBetweenTicksGoesStaleAtTheNextTickAndANewDaemonIsBelievedUntilProbed() {
        var model = KioskFixtures.model()
        #expect(model.documentPID == 42)
        guard case .showing = model.status else { Issue.record("alive: shown"); return }
        model.handle(.clockTicked(model.now, daemonAlive: false))
        #expect(model.status == .stale(.daemonGone(pid: 42)))
        model.handle(.documentRead(KioskFixtures.document("pid=43")))
        guard case .showing = model.status else { Issue.record("a new daemon's document is believed until probed"); return }
        model.handle(.clockTicked(model.now, daemonAlive: false))
        #expect(model.status == .stale(.daemonGone(pid: 43)))
        model.handle(.documentMissing)
        #expect(model.documentPID == nil)
    }
}
