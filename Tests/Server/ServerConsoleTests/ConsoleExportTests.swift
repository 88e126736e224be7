import ServerConsole
import ServerDomain
import ServerHTTPTypes
import SharedDomain
import Testing

/// Exports are streamed: the rows arrive part by part, every one of them, and the audit entry
/// counts them once the last has been made.
struct ConsoleExportTests {
    /// The whole body, its stream read as the adapter reads it: at most 10,000 bytes a part,
    /// and when none is ready, waiting (suspended) until the stream says one is.
    static func read(_ response: HTTPResponse) async -> [UInt8] {
        var body = response.body
        guard let stream = response.stream else { return body }
        let (ready, readyContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        var wakes = ready.makeAsyncIterator()
        reading: while true {
            switch stream.next(max: 10_000, whenReady: { readyContinuation.yield() }) {
            case .bytes(let part):
                #expect(part.count <= 10_000)
                body += part
            case .notYet:
                await wakes.next()
            case .end:
                break reading
            }
        }
        stream.close()
        return body
    }

    @Test func aLargeExportIsStreamedWholeAndAudited() async throws {
        let fixture = await ConsoleFixture()
        let venue = try VenueID("HALL-1")
        for index in 0..<3000 {
            let entry = NewCheckIn(venue: venue, time: WallTime(milliseconds: fixture.clock.now().milliseconds + Int64(index)), method: .staff,
                                   windowAge: nil, device: nil, visitor: Visitor(name: "v\(index)", phone: "0101234\(1000 + index % 9000)"), operatorName: "x")
            _ = try await fixture.ledger.record(entry, duplicateSeconds: 0)
        }
        let cookie = await fixture.signIn("supervisor").cookie!
        let response = await fixture.send(HTTPRequest(method: "GET", path: "/admin/export", query: ["format": "excel"], cookies: ["qrcheckin_console": cookie]))
        #expect(response.status == 200 && response.stream != nil)
        let text = await String(decoding: Self.read(response), as: UTF8.self)
        let lines = text.split(separator: "\r\n")
        #expect(lines.count == 3001 && lines.first!.hasPrefix("\u{FEFF}id,venue"))
        #expect(lines[1].contains("\"=\"\"01012341000\"\"\""))
        // The entry was committed before the first row left.
        var exported: AuditEntry?
        try await fixture.ledger.eachEntry(AuditQuery()) { entry in
            if entry.action == .export { exported = entry }
            return exported == nil
        }
        #expect(exported?.rows == 3000 && exported?.detail == "all format=excel" && exported?.actor == "supervisor")
    }
}
