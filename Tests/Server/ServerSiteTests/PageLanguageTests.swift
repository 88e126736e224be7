import ServerHTTPTypes
import ServerSite
import ServerWeb
import SharedText
import Testing

/// `?lang=` first, then the weightiest of ko and en in Accept-Language, else English.
struct PageLanguageTests {
    @Test(arguments: [
        ("ko-KR,ko;q=0.9,en-US;q=0.8", Language.ko), ("en-US,en;q=0.9,ko;q=0.8", .en), ("fr-FR,ko;q=0.5", .ko),
        ("fr-FR", .en), ("", .en), ("ko;q=0", .en), ("en;q=0.3, ko;q=0.7", .ko), ("KO", .ko), ("ko;q=abc", .ko), ("*", .en),
    ])
    func acceptLanguage(_ header: String, _ expected: Language) {
        #expect(PageLanguage.fromAcceptLanguage(header) == expected)
    }

    @Test func theQueryWins() {
        #expect(PageLanguage.choose(HTTPRequest(method: "GET", path: "/", query: ["lang": "en"], headers: ["accept-language": "ko"])) == .en)
        #expect(PageLanguage.choose(HTTPRequest(method: "GET", path: "/", query: ["lang": "xx"], headers: ["accept-language": "ko"])) == .ko)
    }

    /// The kiosk says the same word (KioskViewsTests checks its half against `SharedWords` too).
    @Test func theSafeNumberIsTheKiosksWord() {
        #expect(ServerWords(.ko).safeNumber == SharedWords(.ko).safeNumberLabel)
        #expect(ServerWords(.en).safeNumber == SharedWords(.en).safeNumberLabel)
    }
}
