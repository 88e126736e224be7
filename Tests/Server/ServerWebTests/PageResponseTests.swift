import ServerHTTPTypes
import ServerWeb
import Testing

/// Both sites' pages: the type, then the strict security headers (the console's lets its
/// dashboard fetch itself), then the page's own; the body is the markup's bytes.
struct PageResponseTests {
    @Test func aPageCarriesItsTypeTheSecurityHeadersAndItsOwn() {
        let page: HTML = "<p>\("a&b")</p>"
        let response = HTTPResponse(status: 404, page: page, security: SecurityHeaders.site, extra: [("Retry-After", "5")])
        #expect(response.status == 404 && response.body == Array("<p>a&amp;b</p>".utf8))
        #expect(response.headers.map(\.name) == ["Content-Type"] + HTTPResponse.securityHeaders.map(\.name) + ["Retry-After"])
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(HTTPResponse(status: 200, page: page, security: SecurityHeaders.site, bodyless: true).body.isEmpty)
    }

    @Test func theConsoleMayFetchItselfAndNothingElseDiffers() {
        let site = Dictionary(uniqueKeysWithValues: SecurityHeaders.site.map { ($0.name, $0.value) })
        let console = Dictionary(uniqueKeysWithValues: SecurityHeaders.console.map { ($0.name, $0.value) })
        #expect(console["Content-Security-Policy"] == site["Content-Security-Policy"]! + "; connect-src 'self'")
        #expect(site["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(console.filter { $0.key != "Content-Security-Policy" } == site.filter { $0.key != "Content-Security-Policy" })
    }
}
