@testable import SharedCurl
import SharedHTTPClient
import Testing

/// The HTTP adapter both halves send with, without a network: its reading of libcurl's header lines, and a
/// refused connection as a result rather than an error.
@Suite struct CurlTransportTests {
    @Test func headerLinesAreSplitAtCRLFAndOnlyTheLastHeadCounts() {
        let head = Array(("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "Qrcheckin-Answer:  v1; mac=ab  \r\nX-Empty:\r\n\r\n").utf8)
        let fields = CurlTransport.headerFields(head)
        #expect(fields.map(\.name) == ["Content-Type", "Qrcheckin-Answer", "X-Empty"])
        #expect(IncomingResponse(status: 200, headers: fields).header("qrcheckin-answer") == "v1; mac=ab")
    }

    @Test func aRefusedConnectionIsAResultSayingSo() throws {
        let transport = try CurlTransport()
        // Port 9 (discard) on loopback: nothing listens in a test environment.
        try transport.start(OutgoingRequest(url: "http://127.0.0.1:9/C/DEMO/kiosk", headers: [("Content-Type", "application/json")],
                                            body: Array("{}".utf8), timeoutMilliseconds: 5000), id: 1)
        var results: [(id: Int, result: HTTPResult)] = []
        for _ in 0..<100 where results.isEmpty {
            results = try transport.wait(timeoutMilliseconds: 100, readable: []).results
        }
        #expect(results.count == 1 && results[0].id == 1)
        guard case .failure(let reason)? = results.first?.result else { Issue.record("\(results)"); return }
        #expect(reason.contains("Couldn't connect") || reason.contains("refused"), "\(reason)")
    }

    @Test func onlyHTTPAndHTTPSAreSpoken() throws {
        let transport = try CurlTransport()
        try transport.start(OutgoingRequest(url: "file:///etc/passwd", headers: [], body: Array("{}".utf8), timeoutMilliseconds: 5000), id: 2)
        var results: [(id: Int, result: HTTPResult)] = []
        for _ in 0..<100 where results.isEmpty {
            results = try transport.wait(timeoutMilliseconds: 100, readable: []).results
        }
        guard case .failure(let reason)? = results.first?.result else { Issue.record("\(results)"); return }
        #expect(reason.lowercased().contains("protocol"), "\(reason)")
    }
}
