import ServerConsole
import ServerDomain
import ServerHTTPTypes
import Testing

/// Every console POST, sign-in included, is refused with 403 when a browser says it comes from
/// another site's page (`Sec-Fetch-Site: cross-site`, or an `Origin` that is not the `Host`):
/// the visitor pages' rule, one definition (`HTTPRequest.isCrossSite`). Before issue 37 only
/// the form token stood between another site and the console.
struct ConsoleCrossSiteTests {
    static let crossSite: [[String: String]] = [
        ["sec-fetch-site": "cross-site", "host": "127.0.0.1:8081"],
        ["origin": "https://evil.example", "host": "127.0.0.1:8081"],
        ["origin": "null", "host": "127.0.0.1:8081"],
        // Sec-Fetch-Site decides when a browser sends it, as on the visitor pages.
        ["sec-fetch-site": "cross-site", "origin": "http://127.0.0.1:8081", "host": "127.0.0.1:8081"],
    ]
    static let sameSite: [[String: String]] = [
        [:],
        ["sec-fetch-site": "same-origin", "origin": "http://127.0.0.1:8081", "host": "127.0.0.1:8081"],
        ["origin": "http://127.0.0.1:8081", "host": "127.0.0.1:8081"],
    ]

    @Test func aCrossSiteSignInIsRefusedAndBeginsNoSession() async throws {
        let fixture = await ConsoleFixture()
        for headers in Self.crossSite {
            let form = await fixture.send(HTTPRequest(method: "GET", path: "/admin/login"))
            let token = try await #require(ConsoleFixture.cookie(form, "qrcheckin_console_login"))
            let response = await fixture.send(HTTPRequest(method: "POST", path: "/admin/login", headers: headers, cookies: ["qrcheckin_console_login": token],
                                                    form: ["form-token": token, "user": "admin", "password": "password-admin"]))
            #expect(response.status == 403 && ConsoleFixture.cookie(response, "qrcheckin_console") == nil, "\(headers)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("This request came from another site"))
        }
        var entries: [AuditEntry] = []
        try await fixture.ledger.eachEntry(AuditQuery()) { entries.append($0); return true }
        #expect(entries.isEmpty, "no sign-in, and no failed one counted either")
    }

    @Test func everyPostOfASessionIsRefusedCrossSiteAndChangesNothing() async throws {
        let fixture = await ConsoleFixture()
        let cookie = try await #require(await fixture.signIn("admin").cookie)
        let token = try await #require(ConsoleFixture.formToken(await fixture.send(HTTPRequest(method: "GET", path: "/admin/users", cookies: ["qrcheckin_console": cookie]))))
        let posts: [(String, [String: String])] = [
            ("/admin/users", ["action": "add", "name": "mallory", "role": "admin", "password": "long-enough"]),
            ("/admin/checkin", ["venue": "HALL-1", "name": "Park"]),
            ("/admin/erase", ["phone": "010-1234-5678"]),
            ("/admin/logout", [:]),
        ]
        for headers in Self.crossSite {
            for (path, fields) in posts {
                let response = await fixture.send(HTTPRequest(method: "POST", path: path, headers: headers, cookies: ["qrcheckin_console": cookie],
                                                        form: fields.merging(["form-token": token]) { $1 }))
                #expect(response.status == 403, "\(path) \(headers)")
            }
        }
        #expect(try await fixture.ledger.account(named: "mallory") == nil)
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0)
        #expect(await fixture.send(HTTPRequest(method: "GET", path: "/admin/", cookies: ["qrcheckin_console": cookie])).status == 200, "still signed in")
        for headers in Self.sameSite {
            let response = await fixture.send(HTTPRequest(method: "POST", path: "/admin/checkin", headers: headers, cookies: ["qrcheckin_console": cookie],
                                                    form: ["form-token": token, "venue": "HALL-1", "name": "Park"]))
            #expect(response.status == 303, "\(headers)")
        }
    }
}
