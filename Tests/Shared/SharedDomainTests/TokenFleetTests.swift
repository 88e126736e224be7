@testable import SharedDomain
import Testing

/// A stand-in HMAC that returns the same bytes for every message: every window's safe number
/// collides, which no real key would do on purpose, so the collision rule can be tested.
struct ConstantAuthenticator: MessageAuthenticator {
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] { [UInt8](repeating: 7, count: 32) }
    func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }
}

/// Counts HMAC calls, to prove keys are derived once and not per code.
final class CountingAuthenticator: MessageAuthenticator, @unchecked Sendable {
    var calls = 0
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        calls += 1
        var digest = [UInt8](repeating: 0, count: 32)
        for (index, byte) in (key + message).enumerated() { digest[index % 32] &+= byte &* UInt8(truncatingIfNeeded: index + 1) }
        return digest
    }
    func isEqualInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }
}

@Suite struct SafeNumberNormalisationTests {
    @Test func decomposedHangulIsComposedAlgorithmically() {
        // 가 = U+1100 U+1161; 나 = U+1102 U+1161; 각 = 가 + U+11A8.
        #expect(SafeNumber.normalized("12\u{1100}\u{1161}34\u{1102}\u{1161}") == "12가34나")
        #expect(SafeNumber.normalized("\u{1100}\u{1161}\u{11A8}") == "각")
        #expect(SafeNumber.normalized("가\u{11A8}") == "각")
        #expect(SafeNumber.normalized("12가34나") == "12가34나")
        #expect(SafeNumber.fields(of: "12\u{1100}\u{1161}34\u{1102}\u{1161}") == [12, 0, 34, 4])
        #expect(SafeNumber.fields(of: " 12가34나\r\n") == [12, 0, 34, 4])
        // Compatibility jamo (ㄱ U+3131) are not canonically equivalent: not a safe number.
        #expect(SafeNumber.fields(of: "12ㄱㅏ34나") == nil)
        #expect(SafeNumber.fields(of: "12각34나") == nil)
    }
}

@Suite struct VenueIDDotTests {
    @Test func onlyDotsAreRefused() {
        for text in [".", "..", "...", "................"] {
            #expect(throws: CheckInCodeError.self) { try VenueID(text) }
        }
        #expect(throws: Never.self) { try VenueID(".A.") }
        #expect(throws: Never.self) { try VenueID("A..") }
    }
}

@Suite struct KeySourceTests {
    let secret = try! MasterSecret(bytes: Array(0..<32))
    let hall1 = try! VenueID("HALL-1"), hall2 = try! VenueID("HALL-2")

    @Test func aVenueKeyServesItsVenueOnly() throws {
        let authenticator = CountingAuthenticator()
        let key = VenueSigningKey(deriving: secret, for: hall1, authenticator: authenticator)
        #expect(try SigningKeySource.venue(key).key(for: hall1, authenticator: authenticator) == key)
        #expect(throws: SigningKeyError(serves: hall1, requested: hall2)) {
            try SigningKeySource.venue(key).key(for: hall2, authenticator: authenticator)
        }
        #expect(throws: SigningKeyError.self) {
            try VenueCodeIssuer(venue: hall2, keys: .venue(key), baseURL: "HTTPS://X", period: .standard, authenticator: authenticator)
        }
        #expect("\(key)" == "VenueSigningKey(HALL-1, redacted)")
    }

    @Test func theIssuerDerivesOnceNotPerCode() throws {
        let authenticator = CountingAuthenticator()
        let issuer = try VenueCodeIssuer(venue: hall1, keys: .master(secret), baseURL: "HTTPS://X", period: .standard,
                                         authenticator: authenticator)
        let afterSetUp = authenticator.calls
        for window in 0..<100 { _ = issuer.code(window: Int64(window), sequence: 0) }
        // Two HMACs a code (token and safe number); the HKDF's two are not repeated.
        #expect(authenticator.calls - afterSetUp == 200)
    }

    @Test func aForcedRefreshAtTheLastSequenceReissuesTheLastCode() throws {
        let issuer = try VenueCodeIssuer(venue: hall1, keys: .master(secret), baseURL: "HTTPS://X", period: .standard,
                                         authenticator: CountingAuthenticator())
        let last = issuer.code(window: 5, sequence: CheckInCodeIssuer.maximumSequence)
        #expect(issuer.code(window: 5, sequence: CheckInCodeIssuer.maximumSequence + 1) == last)
        #expect(last.sequence == 4_294_967_295)
    }

    @Test func aSessionDerivesEachVenueOnce() throws {
        let authenticator = CountingAuthenticator()
        let issuer = try VenueCodeIssuer(venue: hall1, keys: .master(secret), baseURL: "HTTPS://X", period: .standard,
                                         authenticator: authenticator)
        let code = issuer.code(at: 1_700_000_000)
        let session = CheckInCodeVerifier(secret: secret, period: .standard, authenticator: authenticator).session()
        _ = session.check(code.url, expectedVenue: nil, at: 1_700_000_000)
        let first = authenticator.calls
        #expect(session.check(code.url, expectedVenue: nil, at: 1_700_000_000).isValid)
        #expect(authenticator.calls - first == 1)
    }

    @Test func onACollisionTheWindowNearestNowWins() throws {
        let verifier = CheckInCodeVerifier(secret: secret, period: .standard, skew: 2, authenticator: ConstantAuthenticator())
        let typed = SafeNumber.format(0x0707_0707_0707_0707)
        let report = verifier.check(typed, expectedVenue: hall1, at: 1_700_000_000)
        #expect(report.window == 113_333_333)
        #expect(report.secondsLeft == 40)
    }

    @Test func rotationReportsWhichKeyMatched() throws {
        let old = try MasterSecret(bytes: Array(100..<132))
        let code = try VenueCodeIssuer(venue: hall1, keys: .master(old), baseURL: "HTTPS://X", period: .standard,
                                       authenticator: CountingAuthenticator()).code(at: 0)
        let both = CheckInCodeVerifier(keys: [.master(secret), .master(old)], period: .standard, authenticator: CountingAuthenticator())
        #expect(both.check(code.url, expectedVenue: nil, at: 0).keyIndex == 1)
        #expect(both.check(code.safeNumber, expectedVenue: hall1, at: 0).keyIndex == 1)
        let newOnly = CheckInCodeVerifier(keys: [.master(secret)], period: .standard, authenticator: CountingAuthenticator())
        #expect(newOnly.check(code.url, expectedVenue: nil, at: 0).reason == .badMAC)
    }

    @Test func extremeTimesNeitherTrapNorOverflow() throws {
        let verifier = CheckInCodeVerifier(secret: secret, period: .standard, skew: CheckInTime.maximumSkew,
                                           authenticator: CountingAuthenticator())
        let issuer = try VenueCodeIssuer(venue: hall1, keys: .master(secret), baseURL: "HTTPS://X", period: .standard,
                                         authenticator: CountingAuthenticator())
        for time in [CheckInTime.supported.lowerBound, CheckInTime.supported.upperBound, Int64.min, Int64.max] {
            let code = issuer.code(at: time)
            _ = verifier.check(code.url, expectedVenue: hall1, at: time)
            _ = verifier.check(code.safeNumber, expectedVenue: hall1, at: time)
        }
    }
}
