import SharedDomain
import SharedJSON
import SharedSystem
import Testing

/// docs/TOKEN.md, "Kiosk reports": the report's and the answer's MACs with the real HMAC, what
/// a tampered, forged or replayed one looks like to each side, and the headers' grammar.
@Suite struct ReportSignatureTests {
    static let authenticator = HMACAuthenticator()
    static let secret = try! MasterSecret(bytes: hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
    static let hall = try! VenueID("HALL-1")
    static let key = try! ReportKey(from: .master(secret), venue: hall, authenticator: authenticator)
    static let signer = ReportAuthenticator(key: key, authenticator: authenticator)
    static let nonce = ReportNonce(bytes: Array(0..<16))
    static let body = Array(#"{"venue":"HALL-1","kiosk":"door-1"}"#.utf8)

    @Test func aSignedReportVerifiesAndAnyChangeDoesNot() throws {
        let signature = Self.signer.sign(body: Self.body, time: 1_700_000_000_123, nonce: Self.nonce)
        let header = try ReportSignature(headerValue: signature.headerValue)
        #expect(header == signature)
        #expect(Self.signer.isValid(header, body: Self.body))
        // The body, the time and the nonce are each covered.
        var altered = Self.body
        altered[altered.count - 3] ^= 0x01
        #expect(!Self.signer.isValid(header, body: altered))
        #expect(!Self.signer.isValid(ReportSignature(time: 1_700_000_000_124, nonce: Self.nonce, mac: signature.mac), body: Self.body))
        #expect(!Self.signer.isValid(ReportSignature(time: signature.time, nonce: ReportNonce(bytes: Array(1...16)), mac: signature.mac), body: Self.body))
        // Another venue's report key (a kiosk of HALL-2 signing as HALL-1) does not verify.
        let other = ReportAuthenticator(key: try ReportKey(from: .master(Self.secret), venue: try VenueID("HALL-2"), authenticator: Self.authenticator),
                                        authenticator: Self.authenticator)
        #expect(!other.isValid(header, body: Self.body))
        // A forged MAC of the right shape.
        #expect(!Self.signer.isValid(ReportSignature(time: signature.time, nonce: Self.nonce, mac: [UInt8](repeating: 0, count: 32)), body: Self.body))
    }

    @Test func theReportKeyIsNotTheVenueKey() throws {
        let venueKey = VenueSigningKey(deriving: Self.secret, for: Self.hall, authenticator: Self.authenticator)
        #expect(Self.key.bytes != venueKey.bytes)
        #expect(ReportKey(deriving: venueKey, authenticator: Self.authenticator) == Self.key)
        // A venue key of another venue cannot make this venue's report key.
        #expect(throws: SigningKeyError.self) { try ReportKey(from: .venue(venueKey), venue: try VenueID("HALL-2"), authenticator: Self.authenticator) }
        #expect("\(Self.key)" == "ReportKey(HALL-1, redacted)")
    }

    @Test func anAnswerIsBoundToItsReportsNonce() throws {
        let answer = ReportAnswer(serverTime: 1_700_000_000_456,
                                  steer: KioskSteer(id: 7, refresh: .paused, by: OperatorName("mina")!, at: 1_699_999_990))
        let body = answer.bodyBytes
        let signature = Self.signer.signAnswer(body: body, nonce: Self.nonce)
        #expect(Self.signer.isValidAnswer(try AnswerSignature(headerValue: signature.headerValue), body: body, nonce: Self.nonce))
        // Replayed to another report (another nonce), altered, or signed by another venue's key: refused.
        #expect(!Self.signer.isValidAnswer(signature, body: body, nonce: ReportNonce(bytes: Array(1...16))))
        var altered = body
        altered[altered.count - 2] ^= 0x01
        #expect(!Self.signer.isValidAnswer(signature, body: altered, nonce: Self.nonce))
        let other = ReportAuthenticator(key: try ReportKey(from: .master(Self.secret), venue: try VenueID("HALL-2"), authenticator: Self.authenticator),
                                        authenticator: Self.authenticator)
        #expect(!Self.signer.isValidAnswer(other.signAnswer(body: body, nonce: Self.nonce), body: body, nonce: Self.nonce))
        // A report's MAC over the same bytes is no answer's MAC (the labels differ).
        let asReport = Self.signer.sign(body: body, time: 0, nonce: Self.nonce)
        #expect(!Self.signer.isValidAnswer(AnswerSignature(mac: asReport.mac), body: body, nonce: Self.nonce))
    }

    @Test(arguments: [
        ("", "empty"), ("v2; t=1; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 64), "unknown signature version"),
        ("v1; t=1; n=000102030405060708090a0b0c0d0e0f", "mac is missing"),
        ("v1; t=01; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 64), "canonical"),
        ("v1; t=-1; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 64), "canonical"),
        ("v1; t=1; n=000102030405060708090A0B0C0D0E0F; mac=" + String(repeating: "0", count: 64), "lower-case"),
        ("v1; t=1; n=00010203; mac=" + String(repeating: "0", count: 64), "32 lower-case"),
        ("v1; t=1; t=2; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 64), "given twice"),
        ("v1; t=1; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 63), "64 hex"),
        ("v1; t=1; n=000102030405060708090a0b0c0d0e0f; mac=" + String(repeating: "0", count: 64) + "; x=1", "unknown parameter"),
        ("v1 t=1", "unknown signature version"),
    ])
    func malformedHeadersAreRefusedSayingWhy(header: String, words: String) {
        do {
            _ = try ReportSignature(headerValue: header)
            Issue.record("accepted \(header)")
        } catch {
            #expect(error.description.contains(words), "\(header): \(error)")
        }
    }

    @Test func parametersMayComeInAnyOrderWithSpaces() throws {
        let mac = String(repeating: "ab", count: 32)
        let parsed = try ReportSignature(headerValue: "v1;mac=\(mac) ;\tn=000102030405060708090a0b0c0d0e0f; t=0")
        #expect(parsed.time == 0 && parsed.nonce == Self.nonce && parsed.mac == [UInt8](repeating: 0xab, count: 32))
        #expect(try AnswerSignature(headerValue: "v1; mac=\(mac.uppercased())").mac == [UInt8](repeating: 0xab, count: 32))
    }

    @Test func theReplayWindowAdmitsANonceOnceAndRefusesStaleTimes() {
        var window = ReportReplayWindow(capacity: 3)
        let now: Int64 = 1_700_000_000_000
        #expect(window.admit(time: now, nonce: Self.nonce, now: now) == .admitted)
        #expect(window.admit(time: now, nonce: Self.nonce, now: now + 1000) == .replayed)
        #expect(window.admit(time: now - 300_001, nonce: ReportNonce(bytes: Array(1...16)), now: now) == .stale(offsetMilliseconds: -300_001))
        #expect(window.admit(time: now + 40_000, nonce: ReportNonce(bytes: Array(2...17)), now: now) == .admitted)
        // Past the window the nonce is forgotten, and its report would be stale anyway.
        #expect(window.admit(time: now, nonce: Self.nonce, now: now + 300_001) == .stale(offsetMilliseconds: -300_001))
        // At capacity the oldest goes, and nothing at or before it can be judged new.
        var small = ReportReplayWindow(capacity: 1)
        #expect(small.admit(time: now, nonce: Self.nonce, now: now) == .admitted)
        #expect(small.admit(time: now + 10, nonce: ReportNonce(bytes: Array(1...16)), now: now) == .admitted)
        #expect(small.admit(time: now, nonce: Self.nonce, now: now) == .stale(offsetMilliseconds: 0))
        #expect(small.admit(time: Int64.min, nonce: Self.nonce, now: Int64.max) == .stale(offsetMilliseconds: Int64.min))
    }

    @Test func reportKeyFilesAreReadAndRefusedWhereCodesAreSigned() throws {
        let directory = temporaryDirectory("report-key")
        let path = directory + "/report.key"
        try SecretFile.create(Self.key, at: path, overwrite: false)
        #expect(try SecretFile.loadReportKey(from: path, venue: Self.hall, authenticator: Self.authenticator) == Self.key)
        #expect(throws: SecretError.wrongVenue(path: path, serves: "HALL-1", requested: "HALL-2")) {
            _ = try SecretFile.loadReportKey(from: path, venue: try VenueID("HALL-2"), authenticator: Self.authenticator)
        }
        #expect(throws: SecretError.reportKeyNotSigningKey(path: path, venue: "HALL-1")) { _ = try SecretFile.loadKeySource(from: path) }
        // A master secret and a venue key derive the same report key.
        let master = directory + "/secret"
        try SecretFile.create(Self.secret, at: master, overwrite: false)
        #expect(try SecretFile.loadReportKey(from: master, venue: Self.hall, authenticator: Self.authenticator) == Self.key)
        let venueKey = directory + "/venue.key"
        try SecretFile.create(VenueSigningKey(deriving: Self.secret, for: Self.hall, authenticator: Self.authenticator), at: venueKey, overwrite: false)
        #expect(try SecretFile.loadReportKey(from: venueKey, venue: Self.hall, authenticator: Self.authenticator) == Self.key)
    }
}
