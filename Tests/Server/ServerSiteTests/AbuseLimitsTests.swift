import ServerDomain
import ServerHTTPTypes
import ServerSite
import SharedDomain
import SharedTesting
import Testing

/// One code is one visitor: the site's limits against minting crowds, planting visitors and
/// guessing safe numbers, and never against the honest crowd behind one Wi-Fi address.
struct AbuseLimitsTests {
    @Test func oneCodeReplayedWithoutCookiesMintsNoMoreThanTheNetworksBudget() async throws {
        let fixture = SiteFixture()
        let path = "/C/HALL-1/" + fixture.code().token
        var admitted = 0, turnedAway = 0
        for _ in 0..<500 {
            let response = await fixture.get(path, language: "en")
            if response.status == 303 { admitted += 1 }
            if response.status == 429 {
                turnedAway += 1
                #expect(response.header("Retry-After") == "15")
                #expect(SiteFixture.cookie(response, "qrcheckin_device") == nil, "a refusal gives no device")
                #expect(SiteFixture.text(response).contains("ask the staff"))
            }
        }
        #expect(admitted == NewDeviceLimits.standard.perNetworkBurst && turnedAway == 500 - admitted)
        #expect(try await fixture.ledger.count(CheckInQuery()) == admitted)
        // The phones that already have their cookie are never held back by that budget.
        let phones = try await (0..<50).asyncMap { index in
            fixture.clock.advance(seconds: 3)
            let response = await fixture.get("/C/HALL-1/" + fixture.code().token, client: "198.51.100.\(index + 1)")
            return ["qrcheckin_device": try await #require(SiteFixture.cookie(response, "qrcheckin_device"))]
        }
        fixture.clock.advance(seconds: 4 * 3600)  // past the duplicate time: each checks in anew
        let live = "/C/HALL-1/" + fixture.code().token
        for _ in 0..<200 { _ = await fixture.get(live) }  // the replay goes on meanwhile
        for phone in phones { #expect(await fixture.get(live, cookies: phone).status == 303) }
    }

    @Test func aBurstOfFiftyNewPhonesBehindOneAddressAllGetIn() async {
        let fixture = SiteFixture()
        let path = "/C/HALL-1/" + fixture.code().token
        #expect(await (0..<50).asyncAllSatisfy { _ in await fixture.get(path).status == 303 })
    }

    @Test func oneCodeMintsAtMostItsBudgetFromManyAddresses() async throws {
        let fixture = SiteFixture(newDevices: NewDeviceLimits(perNetworkBurst: 60, perNetworkPerMinute: 30, perCode: 30))
        let path = "/C/HALL-1/" + fixture.code().token
        let statuses = await (0..<100).asyncMap { await fixture.get(path, client: "203.0.113.\($0 + 1)").status }
        #expect(statuses.filter { $0 == 303 }.count == 30 && statuses.filter { $0 == 429 }.count == 70)
        fixture.clock.advance(seconds: 15)
        #expect(await fixture.get("/C/HALL-1/" + fixture.code().token, client: "203.0.113.200").status == 303, "the next code has its own budget")
    }

    @Test func aVisitorTicketIsGoodOnceAndOnlyOnItsOwnDevice() async throws {
        let fixture = SiteFixture(venues: VenueDirectory(defaults: VenueProfile(displayName: nil, period: .standard, skew: 1,
                                                                                 duplicateSeconds: 0, visitorFields: [.name, .phone])))
        let form = await fixture.get("/C/HALL-1/" + fixture.code().token, language: "en")
        let ticket = try await #require(SiteFixture.hiddenInput(form, "ticket"))
        let owner = ["qrcheckin_device": try await #require(SiteFixture.cookie(form, "qrcheckin_device"))]
        let other = await fixture.get("/C/HALL-1/" + fixture.code().token, client: "192.0.2.9")
        let stranger = ["qrcheckin_device": try await #require(SiteFixture.cookie(other, "qrcheckin_device"))]
        let fields = ["ticket": ticket, "name": "Kim", "phone": "010-1234-5678"]
        let elsewhere = await fixture.get("/C/HALL-1/visitor", cookies: stranger, language: "en", method: "POST", form: fields)
        #expect(elsewhere.status == 400 && SiteFixture.text(elsewhere).contains("on the phone that scanned"))
        let noCookie = await fixture.get("/C/HALL-1/visitor", language: "en", method: "POST", form: fields)
        #expect(noCookie.status == 400 && SiteFixture.cookie(noCookie, "qrcheckin_device") == nil)
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0)
        #expect(await fixture.get("/C/HALL-1/visitor", cookies: owner, method: "POST", form: fields).status == 303)
        let again = await fixture.get("/C/HALL-1/visitor", cookies: owner, language: "en", method: "POST",
                                form: ["ticket": ticket, "name": "Someone Else", "phone": "010-9999-9999"])
        #expect(again.status == 400 && SiteFixture.text(again).contains("already sent"))
        #expect(try await fixture.ledger.count(CheckInQuery()) == 1)
    }

    @Test func oneVisitorsTyposDoNotLockOutTheRestBehindTheSameAddress() async throws {
        let fixture = SiteFixture()
        let code = fixture.code()
        let phones = try await (0..<20).asyncMap { index in
            let response = await fixture.get("/C/HALL-1/" + code.token, client: "198.51.100.\(index + 1)")
            return ["qrcheckin_device": try await #require(SiteFixture.cookie(response, "qrcheckin_device"))]
        }
        fixture.clock.advance(seconds: 4 * 3600)
        let live = fixture.code()
        let wrong = live.safeNumber == "00가00가" ? "11가11가" : "00가00가"
        let typos = await (0..<10).asyncMap { _ in await fixture.postSafeNumber(wrong, cookies: phones[0], client: "192.0.2.50").status }
        #expect(typos.prefix(5).allSatisfy { $0 == 403 } && typos.dropFirst(5).allSatisfy { $0 == 429 })
        for phone in phones.dropFirst() {
            #expect(await fixture.postSafeNumber(live.safeNumber, cookies: phone, client: "192.0.2.50").status == 303)
        }
    }

    @Test func aMalformedTryIsNormalisedOrRefusedWithoutCountingAsAGuess() async throws {
        let fixture = SiteFixture(tries: 1)
        let code = fixture.code()
        let first = await fixture.get("/C/HALL-1/" + fixture.code().token)
        let phone = ["qrcheckin_device": try await #require(SiteFixture.cookie(first, "qrcheckin_device"))]
        for typo in ["abc", "12345", "１２가", String(repeating: "가", count: 80)] {
            let response = await fixture.postSafeNumber(typo, cookies: phone, language: "en")
            #expect(response.status == 400 && SiteFixture.text(response).contains("two digits, a letter"), "\(typo)")
        }
        fixture.clock.advance(seconds: 4 * 3600)
        let live = fixture.code()
        // Full-width digits, spaces and hyphens are how phones type it: the same number.
        let fullWidth = String(live.safeNumber.unicodeScalars.map { scalar -> Character in
            ("0"..."9").contains(scalar) ? Character(Unicode.Scalar(scalar.value - 0x30 + 0xFF10)!) : Character(scalar)
        })
        let spaced = fullWidth.prefix(3) + " - " + fullWidth.dropFirst(3)
        #expect(await fixture.postSafeNumber(String(spaced), cookies: phone).status == 303)
        _ = code
    }

    @Test func aFormPostedFromAnotherSiteIsRefusedAndChangesNothing() async throws {
        let fixture = SiteFixture()
        let code = fixture.code()
        let form = await fixture.get("/C/HALL-1")
        let token = try await #require(SiteFixture.hiddenInput(form, "form-token"))
        for headers in [["sec-fetch-site": "cross-site"], ["origin": "https://evil.example", "host": "checkin.example"], ["origin": "null", "host": "x"]] {
            let response = await fixture.respond(HTTPRequest(method: "POST", path: "/C/HALL-1", headers: headers,
                                                       form: ["safe-number": code.safeNumber, "form-token": token], clientIsLocal: false))
            #expect(response.status == 403 && SiteFixture.cookie(response, "qrcheckin_device") == nil, "\(headers)")
        }
        let sameSite = await fixture.respond(HTTPRequest(method: "POST", path: "/C/HALL-1", headers: ["sec-fetch-site": "same-origin"],
                                                   form: ["safe-number": code.safeNumber, "form-token": token], clientIsLocal: false))
        #expect(sameSite.status == 303)
        #expect(try await fixture.ledger.count(CheckInQuery()) == 1)
        let withoutToken = await fixture.get("/C/HALL-1", method: "POST", form: ["safe-number": code.safeNumber])
        #expect(withoutToken.status == 400)
    }

    @Test(arguments: ["Kim\u{1B}[2J", "Kim\u{0}", "\u{202E}miK", "Kim\r", String(repeating: "K", count: 300)])
    func aVisitorCookieThatTheFormWouldRefuseIsIgnored(name: String) async throws {
        let fixture = SiteFixture(venues: VenueDirectory(defaults: VenueProfile(displayName: nil, period: .standard, skew: 1,
                                                                                 duplicateSeconds: 0, visitorFields: [.name])))
        let forged = VisitorCookie.value(Visitor(name: name, phone: nil))
        let response = await fixture.get("/C/HALL-1/" + fixture.code().token, cookies: ["qrcheckin_visitor": forged])
        #expect(response.status == 200, "the form is asked again")
        #expect(SiteFixture.hiddenInput(response, "ticket") != nil)
        #expect(try await fixture.ledger.count(CheckInQuery()) == 0)
    }
}
