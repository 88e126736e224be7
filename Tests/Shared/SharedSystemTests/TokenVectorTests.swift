import Foundation
import SharedDomain
import SharedSystem
import Testing

/// docs/token-vectors.json, the machine-readable vectors another implementation tests itself
/// against, checked case by case against the Domain with the real libsodium adapter.
@Suite struct TokenVectorTests {
    static func cases() throws -> [[String: Any]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("docs/token-vectors.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["cases"] as? [[String: Any]])
    }

    static func int64(_ value: Any?) -> Int64? {
        (value as? NSNumber)?.int64Value
    }

    @Test func theFileCoversEveryReasonAndTheDecomposedSafeNumber() throws {
        let cases = try Self.cases()
        let reasons = Set(cases.compactMap { ($0["expect"] as? [String: Any])?["reason"] as? String })
        #expect(reasons == Set(CheckInRejection.allCases.map(\.rawValue)))
        let inputs = cases.compactMap { $0["input"] as? String }
        #expect(inputs.contains { $0.unicodeScalars.contains { (0x1100...0x1175).contains($0.value) } })
    }

    @Test func issueCases() throws {
        let authenticator = HMACAuthenticator()
        for item in try Self.cases() where item["kind"] as? String == "issue" {
            let name = item["name"] as! String
            let expect = item["expect"] as! [String: Any]
            let secret = try MasterSecret(bytes: hex(item["secret"] as! String))
            let venue = try VenueID(item["venue"] as! String)
            let period = try RotationPeriod(seconds: item["period"] as! Int)
            let issuer = try VenueCodeIssuer(venue: venue, keys: .master(secret), baseURL: CheckInCodeIssuer.defaultBaseURL,
                                             period: period, authenticator: authenticator)
            let code = issuer.code(at: Self.int64(item["time"])!, sequence: item["seq"] as! Int)
            #expect(code.window == Self.int64(expect["window"]), "\(name)")
            #expect(code.token == expect["token"] as? String, "\(name)")
            #expect(code.url == expect["url"] as? String, "\(name)")
            #expect(code.safeNumber == expect["safeNumber"] as? String, "\(name)")
            #expect(code.issuedAt == Self.int64(expect["issuedAt"]), "\(name)")
            #expect(code.expiresAt == Self.int64(expect["expiresAt"]), "\(name)")
            let key = VenueSigningKey(deriving: secret, for: venue, authenticator: authenticator)
            #expect(hexString(key.bytes) == expect["venueKey"] as? String, "\(name)")
            #expect(String(decoding: SecretFile.encode(key), as: UTF8.self) == expect["venueKeyFile"] as? String, "\(name)")
            // The report key (docs/TOKEN.md, Kiosk reports): from the venue key, the same from the master.
            let reportKey = ReportKey(deriving: key, authenticator: authenticator)
            #expect(hexString(reportKey.bytes) == expect["reportKey"] as? String, "\(name)")
            #expect(String(decoding: SecretFile.encode(reportKey), as: UTF8.self) == expect["reportKeyFile"] as? String, "\(name)")
            #expect(try ReportKey(from: .master(secret), venue: venue, authenticator: authenticator) == reportKey, "\(name)")
            // The venue key alone issues the same code.
            let kiosk = try VenueCodeIssuer(venue: venue, keys: .venue(key), baseURL: CheckInCodeIssuer.defaultBaseURL,
                                            period: period, authenticator: authenticator)
            #expect(kiosk.code(at: Self.int64(item["time"])!, sequence: item["seq"] as! Int) == code, "\(name)")
        }
    }

    @Test func reportCases() throws {
        let authenticator = HMACAuthenticator()
        let cases = try Self.cases().filter { $0["kind"] as? String == "report" }
        #expect(cases.count >= 3)
        for item in cases {
            let name = item["name"] as! String
            let expect = item["expect"] as! [String: Any]
            let secret = try MasterSecret(bytes: hex(item["secret"] as! String))
            let venue = try VenueID(item["venue"] as! String)
            let key = try ReportKey(from: .master(secret), venue: venue, authenticator: authenticator)
            #expect(hexString(key.bytes) == expect["reportKey"] as? String, "\(name)")
            let signer = ReportAuthenticator(key: key, authenticator: authenticator)
            let nonce = try #require(ReportNonce(text: item["nonce"] as! String))
            let body = Array((item["body"] as! String).utf8)
            let signature = signer.sign(body: body, time: Self.int64(item["time"])!, nonce: nonce)
            #expect(signature.headerValue == expect["reportHeader"] as? String, "\(name)")
            // The server's side: the header read back verifies, and any change to the body does not.
            let parsed = try ReportSignature(headerValue: expect["reportHeader"] as! String)
            #expect(signer.isValid(parsed, body: body), "\(name)")
            #expect(!signer.isValid(parsed, body: body + [0x20]), "\(name)")
            let answer = Array((item["answer"] as! String).utf8)
            #expect(signer.signAnswer(body: answer, nonce: nonce).headerValue == expect["answerHeader"] as? String, "\(name)")
            #expect(signer.isValidAnswer(try AnswerSignature(headerValue: expect["answerHeader"] as! String), body: answer, nonce: nonce), "\(name)")
        }
    }

    @Test func venueIDCases() throws {
        for item in try Self.cases() where item["kind"] as? String == "venue-id" {
            let valid = (item["expect"] as! [String: Any])["valid"] as! Bool
            #expect(((try? VenueID(item["text"] as! String)) != nil) == valid, "\(item["name"]!)")
        }
    }

    @Test func verifyCases() throws {
        let authenticator = HMACAuthenticator()
        for item in try Self.cases() where item["kind"] as? String == "verify" {
            let name = item["name"] as! String
            let expect = item["expect"] as! [String: Any]
            let keys: [SigningKeySource] = try (item["keys"] as! [[String: String]]).map { source in
                if let master = source["master"] { return .master(try MasterSecret(bytes: hex(master))) }
                return .venue(try VenueSigningKey(venue: try VenueID(source["venue"]!), bytes: hex(source["key"]!)))
            }
            let verifier = CheckInCodeVerifier(keys: keys, period: try RotationPeriod(seconds: item["period"] as! Int),
                                               skew: item["skew"] as! Int, authenticator: authenticator)
            let venue = try (item["venue"] as? String).map { try VenueID($0) }
            let report = verifier.check(item["input"] as! String, expectedVenue: venue, at: Self.int64(item["time"])!)
            #expect(report.isValid == expect["valid"] as? Bool, "\(name)")
            #expect(report.reason?.rawValue == expect["reason"] as? String, "\(name)")
            #expect(report.venue?.rawValue == expect["venue"] as? String, "\(name)")
            #expect(report.window == Self.int64(expect["window"]), "\(name)")
            #expect(report.sequence.map(Int64.init) == Self.int64(expect["seq"]), "\(name)")
            #expect(report.issuedAt == Self.int64(expect["issuedAt"]), "\(name)")
            #expect(report.expiresAt == Self.int64(expect["expiresAt"]), "\(name)")
            #expect(report.secondsLeft == Self.int64(expect["secondsLeft"]), "\(name)")
            #expect(report.keyIndex == expect["secretIndex"] as? Int, "\(name)")
        }
    }
}
