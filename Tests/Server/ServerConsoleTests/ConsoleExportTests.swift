import ServerConsole
import ServerDomain
import ServerHTTPTypes
import SharedDomain
import Testing

/// Exports are streamed: the rows arrive part by part, every one of them, and the audit entry
/// counts them once the last has been made.
struct ConsoleExportTests {
    static func read(_ response: HTTPResponse) async -> [UInt8] {
        var body = response.body
        while let stream = response.stream {
            let part = stream.read(max: 10_000)
            if part.isEmpty { break }
            #expect(part.count <= 10_000)
            body += part
        }
        response.stream?.close()
        return body
    }

    @Test func aLargeExportIsStreamedWholeAndAudited() async throws {
        let fixture = await ConsoleFixture()
        let venue = try await VenueID("HALL-1")
        for index in 0..<3000 {
            let entry = NewCheckIn(venue: venue, time: WallTime(milliseconds: fixture.clock.now().milliseconds + Int64(index)), method: .staff,
                                   windowAge: nil, device: nil, visitor: Visitor(name: "v\(index)", phone: "0101234\(1000 + index % 9000)"), operatorName: "x")
            fixture.ledger.record(entry, duplicateSeconds: 0) { _ in }
        }
        let cookie = await fixture.signIn("supervisor").cookie!
        let response = await fixture.send(HTTPRequest(method: "GET", path: "/admin/export", query: ["format": "excel"], cookies: ["qrcheckin_console": cookie]))
        #expect(response.status == 200 && response.stream != nil)
        let text = String(decoding: Self.read(response), as: UTF8.self)
        let lines = text.split(separator: "\r\n")
        #expect(lines.count == 3001 && lines.first!.hasPrefix("\u{FEFF}id,venue"))
        #expect(lines[1].contains("\"=\"\"01012341000\"\"\""))
        var exported: AuditEntry?
        for _ in 0..<1000 where exported == nil {
            try await fixture.ledger.audit(AuditQuery()) { entry in
                if entry.action == .export { exported = entry }
                return exported == nil
            }
            if exported == nil { usleepMilliseconds(5) }
        }
        #expect(exported?.rows == 3000 && exported?.detail == "all format=excel" && exported?.actor == "supervisor")
    }
}
