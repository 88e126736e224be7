import ServerDomain
import ServerHTTPTypes
import ServerSite
import SharedDomain
import Testing

/// What every visitor page shows (issue 34): the card scaffold with the venue's display name,
/// one `<h1>`, an SVG icon, a language switch and a way forward; the receipt's freshness at a
/// test clock; the visitor form's privacy notice; the venues' accents and logos.
struct VisitorPagesTests {
    static let named = VenueDirectory(profiles: [SiteFixture.hall: VenueProfile(displayName: "대강당", period: .standard, skew: 1,
                                                                                duplicateSeconds: 3 * 3600, visitorFields: [])])

    /// How often `needle` occurs in `html`.
    static func count(_ needle: String, in html: String) -> Int { html.ranges(of: needle).count }

    /// The receipt `scan` led to, seen by its device in `language`.
    static func receipt(_ fixture: SiteFixture, after scan: HTTPResponse, device: String, language: String = "ko") async throws -> String {
        let location = try await #require(scan.header("Location"))
        let path = String(location.split(separator: "?")[0])
        var query: [String: String] = [:]
        for item in location.split(separator: "?").dropFirst().first?.split(separator: "&") ?? [] {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            query[pair[0]] = pair.count > 1 ? pair[1] : ""
        }
        let response = await fixture.get(path, cookies: ["qrcheckin_device": device], query: query, language: language)
        #expect(response.status == 200)
        return SiteFixture.text(response)
    }

    @Test func theReceiptIsLiveAtNineMinutesAndAgedAtEleven() async throws {
        let fixture = SiteFixture(venues: Self.named)
        let scan = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let device = try await #require(SiteFixture.cookie(scan, "qrcheckin_device"))
        fixture.clock.advance(seconds: 9 * 60)
        let live = try await Self.receipt(fixture, after: scan, device: device)
        #expect(live.contains("tone-admitted") && live.contains("<h1>체크인 완료</h1>") && live.contains("class=\"sweep\""))
        #expect(live.contains("data-fresh-for=\"60\""), "the script turns it aged in a minute if the page stays open")
        fixture.clock.advance(seconds: 2 * 60)
        let aged = try await Self.receipt(fixture, after: scan, device: device)
        #expect(aged.contains("tone-aged") && aged.contains("<h1>11분 전에 체크인했습니다</h1>") && !aged.contains("tone-admitted"))
        #expect(!aged.contains("data-fresh-for"))
        fixture.clock.advance(seconds: 2 * 3600)
        let english = try await Self.receipt(fixture, after: scan, device: device, language: "en")
        #expect(english.contains("<h1>Checked in 2 h ago</h1>"))
    }

    @Test func theReceiptNamesTheZoneOfItsTimes() async throws {
        // The fixture's zone is Seoul's (the time-zone setting, or the host's): a receipt read
        // abroad, or from a server in another zone than the venue, says which clock it shows.
        let fixture = SiteFixture(venues: Self.named)
        let scan = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let receipt = try await Self.receipt(fixture, after: scan, device: try await #require(SiteFixture.cookie(scan, "qrcheckin_device")))
        #expect(receipt.contains("</time> <span class=\"zone\">UTC+09:00</span>"))
    }

    @Test func aDuplicateScanIsAdmittedAndFreshButItsAddressAloneAges() async throws {
        let fixture = SiteFixture(venues: Self.named)
        let first = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let device = try await #require(SiteFixture.cookie(first, "qrcheckin_device"))
        fixture.clock.advance(seconds: 3600)
        let again = await fixture.get("/C/HALL-1/" + fixture.code().token, cookies: ["qrcheckin_device": device])
        let page = try await Self.receipt(fixture, after: again, device: device)
        // Admitted: green, not amber, and it says when.
        #expect(page.contains("tone-admitted") && page.contains("이미 18:00에 체크인했습니다"))
        // Eleven minutes later the same address is aged, and a forged moment does not help.
        fixture.clock.advance(seconds: 11 * 60)
        #expect(try await Self.receipt(fixture, after: again, device: device).contains("tone-aged"))
        let id = try await #require(CheckInSiteTests.receiptID(again))
        let forged = await fixture.get("/C/HALL-1/receipt/\(id)", cookies: ["qrcheckin_device": device],
                                 query: ["again": "1", "seen": "\(fixture.clock.now().seconds).00000000000000000000000000000000"])
        #expect(SiteFixture.text(forged).contains("tone-aged"))
    }

    @Test func everyVisitorPageIsACardWithOneHeadingAnIconAndALanguageSwitch() async throws {
        let fixture = SiteFixture(venues: Self.named, tries: 1)
        let old = fixture.code(at: SiteFixture.start)
        let ahead = fixture.code(at: SiteFixture.start + 75)
        fixture.clock.advance(seconds: 30)
        let scan = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let device = try await #require(SiteFixture.cookie(scan, "qrcheckin_device"))
        let wrong = fixture.code().safeNumber == "00가00가" ? "11가11가" : "00가00가"
        _ = await fixture.postSafeNumber(wrong, cookies: ["qrcheckin_device": device])
        let pages: [(String, HTTPResponse)] = [
            ("receipt", await fixture.get(try await #require(scan.header("Location")), cookies: ["qrcheckin_device": device], language: "ko")),
            ("expired", await fixture.get("/C/HALL-1/" + old.token, language: "ko")),
            ("not yet valid", await fixture.get("/C/HALL-1/" + ahead.token, language: "ko")),
            ("tampered", await fixture.get("/C/HALL-1/1" + String(repeating: "A", count: 40), language: "ko")),
            ("malformed", await fixture.get("/C/HALL-1/xyz", language: "ko")),
            ("other venue", await fixture.get("/C/CAFE/" + old.token, language: "ko")),
            ("form", await fixture.get("/C/HALL-1", language: "ko")),
            ("429", await fixture.postSafeNumber(wrong, cookies: ["qrcheckin_device": device], language: "ko")),
            ("not found", await fixture.get("/nowhere", language: "ko")),
        ]
        for (name, response) in pages {
            let html = SiteFixture.text(response)
            #expect(Self.count("<h1", in: html) == 1, "\(name): exactly one h1")
            #expect(html.contains("<html lang=\"ko\">"), "\(name)")
            #expect(html.contains("<svg class=\"icon\""), "\(name): an SVG icon")
            #expect(!html.contains("✓") && !html.contains("✕") && !html.contains("↺"), "\(name): no text glyph")
            #expect(html.contains("<footer class=\"switch\"><a href=\"") && html.contains("lang=en\" lang=\"en\""), "\(name): a language switch")
            #expect(html.contains("입구의 직원에게 문의하세요") || name == "receipt", "\(name): ask the staff")
            #expect(!html.contains("aria-label"), "\(name): no aria-label on an element whose role forbids it")
            if name != "not found" && name != "other venue" { #expect(html.contains("대강당"), "\(name): the venue's display name") }
        }
        for name in ["expired", "tampered", "malformed", "429", "not yet valid"] {
            let html = SiteFixture.text(pages.first { $0.0 == name }!.1)
            #expect(html.contains("<a class=\"button\" href=\"/C/HALL-1?lang=ko\">안심번호 입력하기</a>"), "\(name): the way to type the number")
        }
        #expect(SiteFixture.text(pages[0].1).contains("<footer class=\"switch\"><a href=\"/C/HALL-1/receipt/"))
        // The language switch of a refused scan is that address again, in English.
        #expect(SiteFixture.text(pages[1].1).contains("href=\"/C/HALL-1/\(old.token)?lang=en\""))
    }

    @Test func theVisitorFormTellsWhoKeepsWhatForHowLongAndSwitchesLanguageByPost() async throws {
        let venues = VenueDirectory(defaults: VenueProfile(displayName: "대강당", period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [.name, .phone]))
        let fixture = SiteFixture(venues: venues, look: SiteLook(controller: "대강당 운영사무국 (privacy@example.org)", retentionSeconds: 28 * 86_400))
        let form = await fixture.get("/C/HALL-1/" + fixture.code().token, language: "ko")
        let html = SiteFixture.text(form)
        for words in ["개인정보 수집·이용 안내", "대강당 운영사무국 (privacy@example.org)", "목적", "체크인 후 28일", "거부할 권리", "118", "동의하고 체크인"] {
            #expect(html.contains(words), "\(words)")
        }
        let device = try await #require(SiteFixture.cookie(form, "qrcheckin_device"))
        let ticket = try await #require(SiteFixture.hiddenInput(form, "ticket"))
        #expect(html.contains("name=\"switch\" value=\"1\" lang=\"en\""))
        let english = await fixture.get("/C/HALL-1/visitor", cookies: ["qrcheckin_device": device], query: ["lang": "en"], method: "POST",
                                  form: ["ticket": ticket, "switch": "1"])
        #expect(english.status == 200)
        let text = SiteFixture.text(english)
        #expect(text.contains("How your details are used") && text.contains("28 days after the check-in") && text.contains("Agree and check in"))
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0, "switching the language records nothing")
        // The ticket still works afterwards.
        let posted = await fixture.get("/C/HALL-1/visitor", cookies: ["qrcheckin_device": device], method: "POST",
                                 form: ["ticket": ticket, "name": "김민지", "phone": "010-1234-5678"])
        #expect(posted.status == 303)
    }

    @Test func accentsAndLogosComeFromTheSiteAndNeverInline() async throws {
        let logo = VenueBrand.Logo(bytes: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), type: "image/svg+xml")
        let look = SiteLook(defaultBrand: VenueBrand(accent: "#112233"), brands: [SiteFixture.hall: VenueBrand(accent: "#0a7d32", logo: logo)])
        let fixture = SiteFixture(venues: Self.named, look: look)
        let css = SiteFixture.text(await fixture.get("/C/_/server.css"))
        #expect(css.contains(":root { --accent: #112233; }") && css.contains("body[data-venue=\"HALL-1\"] { --accent: #0a7d32; }"))
        let page = SiteFixture.text(await fixture.get("/C/HALL-1", language: "en"))
        #expect(page.contains("<body class=\"form tone-info\" data-venue=\"HALL-1\">") && page.contains("<img class=\"logo\" src=\"/C/_/logo.HALL-1\" alt=\"\">"))
        #expect(!page.contains("style="), "the CSP forbids inline style")
        let served = await fixture.get("/C/_/logo.HALL-1")
        #expect(served.status == 200 && served.header("Content-Type") == "image/svg+xml" && served.body == logo.bytes)
        #expect(served.header("Content-Security-Policy")?.contains("sandbox") == true, "an SVG opened alone runs nothing")
        #expect(await fixture.get("/C/_/logo.CAFE").status == 404)
        #expect(!SiteFixture.text(await fixture.get("/C/CAFE", language: "en")).contains("<img"))
    }
}
