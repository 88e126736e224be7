import SharedDomain
import SharedJSON
import Testing

/// A report's and an answer's JSON (docs/TOKEN.md, "Kiosk reports"): written by one half, read
/// back by the other with every field checked; within bounds whatever the daemon's text says.
@Suite struct KioskReportJSONTests {
    static let report = KioskReport(
        venue: try! VenueID("HALL-1"), kiosk: try! KioskName("door-1"), version: "0.1.0", reportInterval: 30,
        wallClock: 1_700_000_000_123, lastRoundTripMs: 12, uptimeSeconds: 3600, status: .running, summary: "paused from the console by mina at 14:02",
        daemon: KioskReport.Daemon(state: .paused, period: 15, health: "ok", shake: .on, refresh: .paused,
                                   modeChange: ModeChange(source: .console, by: OperatorName("mina"), at: 1_699_999_990),
                                   clockSynchronized: true, clockMaxErrorSeconds: 0),
        outputAgeSeconds: .init(png: 1, json: 1, txt: nil), applied: .init(steer: 7, at: 1_699_999_991, outcome: "ok"))

    @Test func aReportRoundTripsInTheNamesCurrentJSONUses() throws {
        let body = Self.report.bodyBytes
        #expect(try KioskReport(body: body) == Self.report)
        let text = String(decoding: body, as: UTF8.self)
        for key in ["\"venue\":\"HALL-1\"", "\"kiosk\":\"door-1\"", "\"wallClock\":1700000000123", "\"state\":\"paused\"", "\"seq\":null",
                    "\"modeSource\":\"console\"", "\"modeChangedBy\":\"mina\"", "\"modeChangedAt\":1699999990",
                    "\"clock\":{\"synchronized\":true,\"maxErrorSeconds\":0}", "\"applied\":{\"steer\":7,\"at\":1699999991,\"outcome\":\"ok\"}"] {
            #expect(text.contains(key), "\(key) in \(text)")
        }
    }

    @Test func aKioskWithoutADaemonReportsNullsAndReadsBackWithout() throws {
        var report = Self.report
        report.status = .notRunning
        report.daemon = nil
        report.applied = nil
        let text = String(decoding: report.bodyBytes, as: UTF8.self)
        #expect(text.contains("\"state\":null") && text.contains("\"clock\":null") && text.contains("\"refresh\":null"))
        #expect(try KioskReport(body: report.bodyBytes) == report)
    }

    @Test func longTextIsCutSoAReportStaysWithinItsBound() throws {
        var report = Self.report
        report.summary = String(repeating: "\u{1}", count: 5000)
        report.daemon?.reason = String(repeating: "디스크", count: 2000)
        report.daemon?.health = "degraded"
        let body = report.bodyBytes
        #expect(body.count <= KioskReport.maximumBodyBytes)
        let read = try KioskReport(json: try JSONParser.parse(body).replacing("summary", with: .string("cut")))
        #expect(read.daemon?.reason?.hasSuffix("…") == true)
        #expect(read.daemon!.reason!.utf8.count <= KioskReport.maximumTextLength)
    }

    @Test(arguments: [
        ("venue", JSONValue.string("hall-1"), "venue"), ("kiosk", .string("-x"), "kiosk"), ("wallClock", .string("1"), "wallClock"),
        ("status", .string("fine"), "status"), ("state", .string("gone"), "state"), ("shake", .null, "shake is missing"),
        ("modeChangedBy", .string("mina kim"), "modeChangedBy"), ("summary", .string("a\u{7}b"), "control character"),
        ("seq", .number(-1), "seq is out of range"), ("period", .number(0), "period"), ("version", .string(""), "version"),
    ])
    func aMalformedReportIsRefusedNamingTheField(key: String, value: JSONValue, words: String) throws {
        let body = try JSONParser.parse(Self.report.bodyBytes).replacing(key, with: value).serializedBytes
        do {
            _ = try KioskReport(body: body)
            Issue.record("accepted \(key) = \(value)")
        } catch {
            #expect(error.description.contains(words), "\(key): \(error)")
        }
    }

    @Test func tooLargeOrNotAnObjectIsRefusedBeforeParsing() {
        #expect(throws: ReportFormatError.malformed("the body is over 4096 bytes")) {
            _ = try KioskReport(body: [UInt8](repeating: 0x20, count: 4097))
        }
        #expect(throws: ReportFormatError.malformed("the body is not a JSON object")) { _ = try KioskReport(body: Array("[]".utf8)) }
    }

    @Test func answersRoundTripAndASteerMustAskForSomething() throws {
        let steer = KioskSteer(id: 3, refresh: .auto, shake: .off, newCode: true, by: OperatorName("mina@example.org")!, at: 1_699_999_990)
        let answer = ReportAnswer(serverTime: 1_700_000_000_456, steer: steer)
        #expect(try ReportAnswer(body: answer.bodyBytes) == answer)
        #expect(try ReportAnswer(body: Array(#"{"serverTime":1,"steer":null,"later":"ignored"}"#.utf8)) == ReportAnswer(serverTime: 1))
        #expect(throws: ReportFormatError.malformed("steer asks for nothing")) {
            _ = try ReportAnswer(body: Array(#"{"serverTime":1,"steer":{"id":1,"by":"mina","at":0}}"#.utf8))
        }
        #expect(throws: ReportFormatError.malformed("steer.by is not an operator's name")) {
            _ = try ReportAnswer(body: Array(#"{"serverTime":1,"steer":{"id":1,"newCode":true,"by":"mina\n","at":0}}"#.utf8))
        }
        #expect(steer.controlLines == ["shake off by console:mina@example.org", "refresh auto by console:mina@example.org",
                                       "refresh now by console:mina@example.org"])
    }
}

extension JSONValue {
    /// The object with member `key` set to `value`.
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { $0.0 == key ? ($0.0, value) : $0 })
    }
}
