import KioskAdapters
import SharedDomain
import SharedQREncoder
import SharedSystem
import Testing

/// Issuer and verifier together with the real libsodium adapter.
@Suite struct CheckInCodeTests {
    let authenticator = HMACAuthenticator()
    let secret = try! MasterSecret(bytes: Array(0..<32))
    let venue = try! VenueID("HALL-1")

    func issuer(_ period: RotationPeriod = .standard, secret: MasterSecret? = nil) -> CheckInCodeIssuer {
        CheckInCodeIssuer(secret: secret ?? self.secret, baseURL: CheckInCodeIssuer.defaultBaseURL,
                          period: period, authenticator: authenticator)
    }

    func verifier(_ period: RotationPeriod = .standard, skew: Int = 1, secret: MasterSecret? = nil) -> CheckInCodeVerifier {
        CheckInCodeVerifier(secret: secret ?? self.secret, period: period, skew: skew, authenticator: authenticator)
    }

    func reason(_ result: CheckInVerification) -> CheckInRejection? {
        if case .rejected(let reason) = result { return reason }
        return nil
    }

    @Test func randomCodesRoundTrip() throws {
        var random = SeededGenerator(state: 20_260_101)
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.")
        for _ in 0..<300 {
            let secret = try MasterSecret(bytes: (0..<Int.random(in: 16...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            let venue = try VenueID(String((0..<Int.random(in: 1...16, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
            let period = try RotationPeriod(seconds: Int.random(in: 1...3600, using: &random))
            let time = Int64.random(in: -4_000_000_000...8_000_000_000, using: &random)
            let sequence = Int.random(in: 0...CheckInCodeIssuer.maximumSequence, using: &random)
            let code = issuer(period, secret: secret).code(for: venue, at: time, sequence: sequence)
            #expect(code.window == period.window(at: time))
            #expect(code.issuedAt <= time && time < code.expiresAt)
            #expect(code.url == "\(CheckInCodeIssuer.defaultBaseURL)/\(venue)/\(code.token)")
            #expect(code.token.utf8.count == CheckInToken.length)
            #expect(SafeNumber.isWellFormed(code.safeNumber))
            let verifier = verifier(period, secret: secret)
            let expected = AcceptedCheckIn(venue: venue, window: code.window, sequence: sequence,
                                           secondsLeft: code.expiresAt + Int64(period.seconds) - time)
            #expect(verifier.verify(code.url, expectedVenue: venue, at: time) == .valid(expected))
            #expect(verifier.verify(code.url, expectedVenue: nil, at: time) == .valid(expected))
            #expect(verifier.verify(code.token, expectedVenue: venue, at: time) == .valid(expected))
            #expect(verifier.verify(safeNumber: code.safeNumber, venue: venue, at: time)
                == .valid(AcceptedCheckIn(venue: venue, window: code.window, sequence: nil, secondsLeft: expected.secondsLeft)))
        }
    }

    @Test func everySingleCharacterChangeOfATokenIsRejected() {
        let code = issuer().code(for: venue, at: 1_700_000_000, sequence: 7)
        let verifier = verifier()
        let replacements = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:az")
        var token = Array(code.token)
        var checked = 0
        for index in token.indices {
            let original = token[index]
            for replacement in replacements where replacement != original {
                token[index] = replacement
                let mutated = String(token)
                #expect(reason(verifier.verify(token: mutated, venue: venue, at: 1_700_000_000)) != nil, "\(mutated)")
                #expect(reason(verifier.verify("\(CheckInCodeIssuer.defaultBaseURL)/\(venue)/\(mutated)", expectedVenue: venue, at: 1_700_000_000)) != nil)
                checked += 1
            }
            token[index] = original
        }
        #expect(checked == 41 * (replacements.count - 1))
        // And dropping or adding a character.
        #expect(reason(verifier.verify(token: String(code.token.dropLast()), venue: venue, at: 1_700_000_000)) == .malformed)
        #expect(reason(verifier.verify(token: code.token + "A", venue: venue, at: 1_700_000_000)) == .malformed)
    }

    @Test func mutationsAreReportedWithTheRightReason() {
        let code = issuer().code(for: venue, at: 1_700_000_000, sequence: 0)
        let verifier = verifier()
        let body = code.token.dropFirst()
        #expect(reason(verifier.verify(token: "2" + body, venue: venue, at: 1_700_000_000)) == .unknownVersion)
        #expect(reason(verifier.verify(token: "Z" + body, venue: venue, at: 1_700_000_000)) == .unknownVersion)
        #expect(reason(verifier.verify(token: "-" + body, venue: venue, at: 1_700_000_000)) == .malformed)
        #expect(reason(verifier.verify(token: "1" + body.dropLast() + "0", venue: venue, at: 1_700_000_000)) == .malformed)
        let lastFlipped = "1" + body.dropLast() + (body.last == "A" ? "B" : "A")
        #expect(reason(verifier.verify(token: lastFlipped, venue: venue, at: 1_700_000_000)) == .badMAC)
        #expect(reason(verifier.verify("", expectedVenue: venue, at: 0)) == .malformed)
        #expect(reason(verifier.verify("HALL-1/\(code.token)", expectedVenue: nil, at: 0)) == .malformed)
        #expect(reason(verifier.verify("HTTPS://X/hall-1/\(code.token)", expectedVenue: nil, at: 0)) == .malformed)
    }

    @Test func everySafeNumberChangeIsRejected() {
        let verifier = verifier()
        for time in stride(from: Int64(1_700_000_000), to: 1_700_000_300, by: 15) {
            let code = issuer().code(for: venue, at: time, sequence: 0)
            var characters = Array(code.safeNumber)
            for index in characters.indices {
                let original = characters[index]
                let choices: [Character] = [0, 1, 3, 4].contains(index) ? Array("0123456789") : SafeNumber.syllables + ["힣", "A"]
                for replacement in choices where replacement != original {
                    characters[index] = replacement
                    #expect(reason(verifier.verify(safeNumber: String(characters), venue: venue, at: time)) != nil)
                }
                characters[index] = original
            }
            #expect(reason(verifier.verify(safeNumber: code.safeNumber, venue: try! VenueID("HALL-2"), at: time)) != nil)
        }
        #expect(reason(verifier.verify(safeNumber: "12가34", venue: venue, at: 0)) == .malformed)
        #expect(reason(verifier.verify(safeNumber: "12현34규", venue: venue, at: 0)) == .malformed)
        #expect(reason(verifier.verify(safeNumber: "１2가34나", venue: venue, at: 0)) == .malformed)
    }

    @Test(arguments: [1, 15, 3600], [0, 1, 2])
    func skewEdgesAreExactToTheSecond(periodSeconds: Int, skew: Int) throws {
        let period = try RotationPeriod(seconds: periodSeconds)
        let code = issuer(period).code(for: venue, window: 113_333_333, sequence: 0)
        let verifier = verifier(period, skew: skew)
        let firstAccepted = period.start(ofWindow: code.window - Int64(skew))
        let firstExpired = period.end(ofWindow: code.window + Int64(skew))
        func check(_ time: Int64) -> CheckInVerification { verifier.verify(code.url, expectedVenue: venue, at: time) }
        func checkSafe(_ time: Int64) -> CheckInVerification { verifier.verify(safeNumber: code.safeNumber, venue: venue, at: time) }
        #expect(reason(check(firstAccepted - 1)) == .notYetValid)
        #expect(reason(checkSafe(firstAccepted - 1)) == .notYetValid)
        #expect(check(firstAccepted) == .valid(AcceptedCheckIn(venue: venue, window: code.window, sequence: 0,
                                                                secondsLeft: firstExpired - firstAccepted)))
        #expect(check(firstExpired - 1) == .valid(AcceptedCheckIn(venue: venue, window: code.window, sequence: 0, secondsLeft: 1)))
        #expect(checkSafe(firstExpired - 1) == .valid(AcceptedCheckIn(venue: venue, window: code.window, sequence: nil, secondsLeft: 1)))
        #expect(reason(check(firstExpired)) == .expired)
        #expect(reason(checkSafe(firstExpired)) == .expired)
        #expect(reason(check(firstExpired + 1_000_000 * Int64(periodSeconds))) == .expired)
    }

    @Test func windowsAtTheEndsOfTimeNeitherTrapNorPass() {
        let verifier = verifier()
        let future = issuer().code(for: venue, window: .max, sequence: 0)
        #expect(future.expiresAt == .max)
        #expect(reason(verifier.verify(future.url, expectedVenue: venue, at: -1_000_000_000_000_000)) == .notYetValid)
        let past = issuer().code(for: venue, window: .min, sequence: 0)
        #expect(past.issuedAt == .min)
        #expect(reason(verifier.verify(past.url, expectedVenue: venue, at: 1_000_000_000_000_000)) == .expired)
    }

    @Test func aCodeOfVenueAFailsForVenueB() throws {
        let a = try VenueID("A"), b = try VenueID("B")
        let code = issuer().code(for: a, at: 1_700_000_000, sequence: 0)
        let verifier = verifier()
        #expect(reason(verifier.verify(code.url, expectedVenue: b, at: 1_700_000_000)) == .wrongVenue)
        #expect(reason(verifier.verify(code.token, expectedVenue: b, at: 1_700_000_000)) == .badMAC)
        let relabelled = "\(CheckInCodeIssuer.defaultBaseURL)/B/\(code.token)"
        #expect(reason(verifier.verify(relabelled, expectedVenue: nil, at: 1_700_000_000)) == .badMAC)
        #expect(reason(verifier.verify(safeNumber: code.safeNumber, venue: b, at: 1_700_000_000)) != nil)
    }

    @Test func anotherSecretOrPeriodIsBadMAC() throws {
        let code = issuer().code(for: venue, at: 1_700_000_000, sequence: 0)
        let other = try MasterSecret(bytes: Array(1...32))
        #expect(reason(verifier(secret: other).verify(code.url, expectedVenue: venue, at: 1_700_000_000)) == .badMAC)
        let thirty = try RotationPeriod(seconds: 30)
        #expect(reason(verifier(thirty).verify(code.url, expectedVenue: venue, at: 1_700_000_000)) == .badMAC)
    }

    @Test func forcedRefreshesNeverRepeatATokenButKeepTheSafeNumber() {
        let codes = (0..<50).map { issuer().code(for: venue, window: 1000, sequence: $0) }
        #expect(Set(codes.map(\.token)).count == 50)
        #expect(Set(codes.map(\.safeNumber)).count == 1)
        let nextWindow = issuer().code(for: venue, window: 1001, sequence: 0)
        #expect(!codes.map(\.token).contains(nextWindow.token))
    }

    @Test(arguments: [("DEMO", 4), ("ABCD", 4), ("ABCDEFGH", 4), ("ABCDEFGHIJKLMNOP", 4)])
    func theDefaultURLFitsQRVersion4AtLevelM(venue: String, maximumVersion: Int) throws {
        let code = issuer().code(for: try VenueID(venue), at: 1_700_000_000, sequence: CheckInCodeIssuer.maximumSequence)
        let version = try QRCodeEncoder().encode(code.url, level: .medium).version
        #expect(version <= maximumVersion, "\(code.url) needs version \(version)")
    }
}
