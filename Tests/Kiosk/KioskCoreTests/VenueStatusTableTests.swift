import KioskCore
import KioskViews
import SharedDomain
import SharedJSON
import SharedText
import Testing

@Suite struct VenueStatusTableTests {
    private let now = WallTime(milliseconds: 1_800_000_007_500)

    private func report(_ phase: CheckInState.Phase, health: Health = .ok, alive: Bool = true) -> StatusReport {
        let state = CheckInState(phase: phase, settings: OperatorSettings(), health: health, secondsLeft: 0,
                                 updatedAt: WallTime(seconds: 1_800_000_000))
        let document = StateDocument(state: state, venue: .demo, period: .standard, pid: 42)
        return StatusReport(document: document, now: now, processAlive: alive)
    }

    private var code: CheckInCode { FakeIssuer(period: .standard).code(window: 120_000_000, sequence: 0) }

    private func row(_ venue: String, _ report: StatusReport) -> VenueStatusTable.Row {
        .init(venue: venue, outputDirectory: "/run/qrcheckin/\(venue)", report: report, pngAgeSeconds: 1)
    }

    @Test func oneAlignedLinePerVenueInBothLanguages() {
        let table = VenueStatusTable(rows: [row("GATE-1", report(.showing(code))), row("HALL.2", report(.paused))],
                                     searched: ["/run/qrcheckin"])
        let english = table.text(language: .en).split(separator: "\n").map(String.init)
        let korean = table.text(language: .ko).split(separator: "\n").map(String.init)
        #expect(english.count == 2 && korean.count == 2)
        #expect(english[0].hasPrefix("GATE-1  Safe number ") && english[0].contains("Time left 8s") && english[0].hasSuffix("ok"))
        #expect(english[1].hasPrefix("HALL.2  Check-in paused ") && english[1].contains("shake on | auto refresh"))
        #expect(korean[0].contains("안심번호 ") && korean[0].contains("남은 시간 8초") && korean[0].hasSuffix("정상"))
        #expect(korean[1].contains("체크인 일시 중지") && korean[1].contains("흔들기 켜짐 | 자동 새로고침"))
        // The modes start in the same terminal column on every line (Hangul is two columns wide).
        for (lines, marker) in [(english, "shake on"), (korean, "흔들기 켜짐")] {
            let columns = lines.map { line in DisplayWidth.of(String(line[..<line.firstRange(of: marker)!.lowerBound])) }
            #expect(Set(columns).count == 1, "\(lines)")
        }
        #expect(table.verdict == .running && table.summary == "2 venues: 2 running")
    }

    @Test func theWorstLineDecidesAndNoneFoundIsNotRunning() {
        let degraded = row("B", report(.showing(code), health: .degraded(reason: "disk full")))
        let gone = row("C", report(.showing(code), alive: false))
        let missing = VenueStatusTable.Row(venue: "D", outputDirectory: "/run/qrcheckin/D", missing: "not running: no /run/qrcheckin/D/current.json")
        #expect(VenueStatusTable(rows: [row("A", report(.showing(code))), degraded], searched: []).verdict == .degraded)
        #expect(VenueStatusTable(rows: [degraded, gone], searched: []).verdict == .notRunning)
        let down = VenueStatusTable(rows: [missing], searched: [])
        #expect(down.verdict == .notRunning && down.text(language: .ko).contains("체크인이 실행 중이 아닙니다"))
        let none = VenueStatusTable(rows: [], searched: ["/run/qrcheckin", "/var/lib/qrcheckin"])
        #expect(none.verdict == .notRunning && none.verdict.exitStatus == 3)
        #expect(none.text(language: .en) == "qrcheckin: no venue found in /run/qrcheckin, /var/lib/qrcheckin\n")
        #expect(none.json()["venues"] == .array([]))
        #expect(VenueStatusTable(rows: [gone], searched: []).text(language: .en).contains("Check-in code out of date"))
    }
}
