import KioskCore
import KioskViews
import SharedDomain
import SharedJSON
import Testing

/// What `status` says of reporting, from `report.json`; and `report.json` read back.
@Suite struct ReportingSummaryTests {
    static let base = ReporterStatus(phase: .reporting, reportTo: "https://checkin.example.org/c", venue: "HALL-1", kiosk: "door-1",
                                     pid: 42, updatedAt: 1_800_000_000, lastAttemptAt: 1_799_999_990, lastOkAt: 1_799_999_988,
                                     sent: 3, lastRoundTripMs: 12, applied: .init(steer: 7, at: 1_799_999_000, outcome: "ok"))

    @Test func reportJSONRoundTrips() throws {
        #expect(try ReporterStatus(parsing: Self.base.json.serializedBytes) == Self.base)
        #expect(throws: StateDocumentError.self) { try ReporterStatus(parsing: Array(#"{"version":2}"#.utf8)) }
    }

    @Test func theRowSaysHowReportingGoes() {
        let words = Vocabulary(.en)
        #expect(ReportingSummary(status: Self.base, running: true, now: 1_800_000_000).text(words)
            == "to https://checkin.example.org/c: last ok 12s ago")
        var failing = Self.base
        failing.phase = .failing
        failing.failuresInARow = 3
        failing.lastError = "Could not resolve host: checkin.example.org"
        failing.nextAttemptAt = 1_800_000_060
        #expect(ReportingSummary(status: failing, running: true, now: 1_800_000_000).text(words)
            == "to https://checkin.example.org/c: failing (3 in a row, last ok 12s ago): Could not resolve host: checkin.example.org; next try in 60s")
        #expect(ReportingSummary(status: Self.base, running: false, now: 1_800_000_000).text(words)
            == "to https://checkin.example.org/c: the reporter is not running (last ok 12s ago)")
        var fresh = Self.base
        fresh.phase = .starting
        fresh.lastOkAt = nil
        #expect(ReportingSummary(status: fresh, running: true, now: 1_800_000_000).text(Vocabulary(.ko)) == "https://checkin.example.org/c(으)로: 아직 응답 없음")
        let json = ReportingSummary(status: Self.base, running: true, now: 1_800_000_000).json
        #expect(json["ok"] == .bool(true) && json["lastOkSecondsAgo"] == .number(12) && json["running"] == .bool(true))
    }

    @Test func statusSaysWhoPausedAndWhenInLocalTime() throws {
        var document = try StateDocument(parsing: Array((#"{"version":1,"state":"paused","venue":"DEMO","url":null,"token":null,"#
            + #""safeNumber":null,"window":null,"seq":null,"issuedAt":null,"expiresAt":null,"period":15,"shake":"on","refresh":"paused","#
            + #""modeSource":"console","modeChangedBy":"mina","modeChangedAt":1800000000,"health":"ok","reason":null,"#
            + #""updatedAt":1800000000,"pid":1}"#).utf8))
        // 14:02 in Seoul (UTC+9) is 05:02 UTC.
        document.modeChange?.at = 1_800_000_000 - 1_800_000_000 % 86_400 + 5 * 3600 + 2 * 60
        let report = StatusReport(document: document, now: WallTime(seconds: document.modeChange!.at + 60), processAlive: true,
                                  offsetSeconds: 9 * 3600)
        #expect(report.summary == "paused from the console by mina at 14:02")
        let text = report.text(language: .en, pngPath: "/run/qrcheckin/current.png", pngAgeSeconds: 1)
        #expect(text.contains("refresh paused (from the console by mina at 14:02)"), "\(text)")
        #expect(report.text(language: .ko, pngPath: "p", pngAgeSeconds: 1).contains("체크인 일시 중지 (콘솔에서 mina, 14:02)"))
        // Another day shows the date too.
        let later = StatusReport(document: document, now: WallTime(seconds: document.modeChange!.at + 86_400), processAlive: true,
                                 offsetSeconds: 9 * 3600)
        #expect(later.summary.hasPrefix("paused from the console by mina at 20") && later.summary.hasSuffix(" 14:02"))
    }
}
