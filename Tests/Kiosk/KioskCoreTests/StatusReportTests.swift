import KioskCore
import KioskViews
import SharedDomain
import SharedText
import Testing

@Suite struct StatusReportTests {
    func document(_ phase: CheckInState.Phase, health: Health = .ok, at seconds: Int64 = 1_800_000_000) -> StateDocument {
        let state = CheckInState(phase: phase, settings: OperatorSettings(), health: health, secondsLeft: 0,
                                 updatedAt: WallTime(seconds: seconds))
        return StateDocument(state: state, venue: .demo, period: .standard, pid: 42)
    }

    var code: CheckInCode {
        FakeIssuer(period: .standard).code(window: 120_000_000, sequence: 0)
    }

    @Test func aCurrentCodeIsRunningWithItsCountdown() {
        let report = StatusReport(document: document(.showing(code)), now: WallTime(milliseconds: 1_800_000_007_500), processAlive: true)
        #expect(report.verdict == .running && report.verdict.exitStatus == 0)
        #expect(report.secondsLeft == 8)
        let korean = report.text(language: .ko, pngPath: "/p", pngAgeSeconds: 1)
        let english = report.text(language: .en, pngPath: "/p", pngAgeSeconds: 1)
        // The label once, then the seconds: never "남은 시간     남은 시간 8초".
        #expect(korean.contains("  남은 시간  8초  ") && korean.ranges(of: "남은 시간").count == 1)
        #expect(english.contains("  Time left    8s  "))
        #expect(korean.contains("  안심번호  ") && korean.contains("흔들기 켜짐 | 자동 새로고침") && korean.contains("  상태       정상"))
        #expect(english.contains("  Safe number  ") && english.contains("shake on | auto refresh") && english.contains("  Health       ok"))
        // Every label is translated: no English label word is left in the Korean report.
        for word in ["Safe number", "Time left", "Modes", "Health", "venue", "updated", "running"] {
            #expect(!korean.contains(word), "\(word) untranslated")
        }
    }

    @Test func staleAfterTheGracePeriodOrWhenTheProcessIsGone() {
        let doc = document(.showing(code))
        #expect(StatusReport(document: doc, now: WallTime(seconds: 1_800_000_020), processAlive: true).verdict == .running)
        #expect(StatusReport(document: doc, now: WallTime(seconds: 1_800_000_021), processAlive: true).verdict == .notRunning)
        #expect(StatusReport(document: doc, now: WallTime(seconds: 1_800_000_001), processAlive: false).verdict == .notRunning)
    }

    @Test func aReportNobodyKeepsCurrentNeverClaimsHealthOK() {
        let doc = document(.showing(code))
        let stale = StatusReport(document: doc, now: WallTime(seconds: 1_800_000_021), processAlive: true)
        #expect(!stale.text(language: .en, pngPath: "/p", pngAgeSeconds: 1).contains("Health       ok"))
        #expect(stale.text(language: .en, pngPath: "/p", pngAgeSeconds: 1).contains("Health       unknown"))
        let refused = StatusReport(document: doc, now: WallTime(seconds: 1_800_000_001), processAlive: true, socketRefused: true)
        #expect(refused.verdict == .notRunning && refused.summary.contains("refuses"))
    }

    @Test func theLanguageFollowsTheLocale() {
        #expect(Language.fromLocale(["LANG": "ko_KR.UTF-8"]) == .ko)
        #expect(Language.fromLocale(["LANG": "ko_KR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]) == .en)
        #expect(Language.fromLocale(["LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"]) == .ko)
        #expect(Language.fromLocale(["LANG": "ko_KR.UTF-8", "LC_ALL": "C"]) == .en)
        #expect(Language.fromLocale(["LANG": "ko_KR.UTF-8", "LC_ALL": ""]) == .ko)
        #expect(Language.fromLocale([:]) == .en)
    }

    @Test func kioskAndStatusUseTheSameWords() {
        #expect(Vocabulary(.ko).safeNumberLabel == "안심번호")
        #expect(Vocabulary(.en).safeNumberLabel == "Safe number")
        #expect(Vocabulary(.ko).countdown(7) == ("남은 시간", "7초"))
        #expect(Vocabulary(.en).countdown(7) == ("Time left", "7s"))
    }

    @Test func degradedPausedAndStopped() {
        let now = WallTime(seconds: 1_800_000_001)
        let degraded = StatusReport(document: document(.showing(code), health: .degraded(reason: "disk full")), now: now, processAlive: true)
        #expect(degraded.verdict == .degraded && degraded.verdict.exitStatus == 1 && degraded.summary.contains("disk full"))
        #expect(StatusReport(document: document(.paused), now: WallTime(seconds: 1_900_000_000), processAlive: true).verdict == .running)
        let stopped = StatusReport(document: document(.stopped), now: now, processAlive: true)
        #expect(stopped.verdict == .notRunning && stopped.verdict.exitStatus == 3)
    }

    @Test func theDocumentSurvivesItsOwnJSON() throws {
        let doc = document(.showing(code), health: .degraded(reason: "x"))
        #expect(try StateDocument(parsing: Array(doc.json.serialized.utf8)) == doc)
    }

    @Test(arguments: [
        (#"{"version":2}"#, "unknown schema version 2"),
        (#"{"version":1,"state":"running"}"#, "field 'venue'"),
        ("not json", "invalid JSON"),
    ])
    func refusesDocumentsItDoesNotUnderstand(text: String, message: String) {
        #expect(throws: StateDocumentError.self) { try StateDocument(parsing: Array(text.utf8)) }
        do { _ = try StateDocument(parsing: Array(text.utf8)) } catch { #expect(error.message.contains(message), "\(error)") }
    }

    @Test func barsFillWithTheTimeLeft() {
        #expect(StatusReport.bar(secondsLeft: 15, period: 15, width: 10) == "██████████")
        #expect(StatusReport.bar(secondsLeft: 0, period: 15, width: 10) == "░░░░░░░░░░")
        #expect(StatusReport.bar(secondsLeft: 7, period: 15, width: 10) == "█████░░░░░")
    }

    @Test(arguments: [(Int64(0), "1970-01-01T00:00:00Z"), (1_800_000_000, "2027-01-15T08:00:00Z"),
                      (951_782_400, "2000-02-29T00:00:00Z"), (-1, "1969-12-31T23:59:59Z")])
    func utcTimesAreISO8601(seconds: Int64, text: String) {
        #expect(UTCTime.iso8601(seconds) == text)
    }
}

@Suite struct StateDocumentRangeTests {
    @Test(arguments: ["expiresAt", "issuedAt", "updatedAt", "period", "pid"])
    func absurdNumbersAreRefusedNotTrappedOn(key: String) throws {
        let state = CheckInState(phase: .showing(FakeIssuer(period: .standard).code(window: 1, sequence: 0)),
                                 settings: OperatorSettings(), health: .ok, secondsLeft: 0, updatedAt: WallTime(seconds: 15))
        let good = StateDocument(state: state, venue: .demo, period: .standard, pid: 9).json.serialized
        let bad = good.replacingFirst("\"\(key)\":", with: "\"\(key)\":9223372036854775807,\"was\":")
        do {
            _ = try StateDocument(parsing: Array(bad.utf8))
            Issue.record("accepted \(key) = Int64.max")
        } catch {
            #expect(error.message.contains("'\(key)' is out of range"))
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
