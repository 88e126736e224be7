@testable import SharedDomain
import Testing

@Suite struct RotationPeriodTests {
    @Test func windowsFloorAlsoForNegativeTimes() throws {
        let period = RotationPeriod.standard
        #expect(period.seconds == 15)
        #expect(period.window(at: 0) == 0)
        #expect(period.window(at: 14) == 0)
        #expect(period.window(at: 15) == 1)
        #expect(period.window(at: -1) == -1)
        #expect(period.window(at: -15) == -1)
        #expect(period.window(at: -16) == -2)
        #expect(period.window(at: Int64.min) == Int64.min / 15 - 1)
        #expect(period.start(ofWindow: -1) == -15 && period.end(ofWindow: -1) == 0)
        #expect(period.start(ofWindow: 113_333_333) == 1_699_999_995)
        #expect(period.end(ofWindow: 113_333_333) == 1_700_000_010)
    }

    @Test func onlyOneSecondToAnHourIsAllowed() throws {
        #expect(throws: CheckInCodeError.invalidPeriod(0)) { try RotationPeriod(seconds: 0) }
        #expect(throws: CheckInCodeError.invalidPeriod(3601)) { try RotationPeriod(seconds: 3601) }
        #expect(try RotationPeriod(seconds: 1).seconds == 1)
        #expect(try RotationPeriod(seconds: 3600).seconds == 3600)
    }
}

@Suite struct VenueIDTests {
    @Test func acceptsTheDocumentedCharacters() throws {
        #expect(try VenueID("DEMO").rawValue == "DEMO")
        #expect(try VenueID("HALL-7.B").description == "HALL-7.B")
        #expect(try VenueID(String(repeating: "9", count: 16)).rawValue.count == 16)
        #expect(VenueID.demo.rawValue == "DEMO")
    }

    @Test func refusesOthersWithAClearReason() {
        for bad in ["", String(repeating: "A", count: 17), "A B", "A/B", "A_B", "가", "A:B"] {
            #expect(throws: CheckInCodeError.self) { try VenueID(bad) }
        }
        do {
            _ = try VenueID("demo")
            Issue.record("lower case accepted")
        } catch {
            #expect(error.description == "invalid venue id 'demo': use upper case (DEMO): ids are case-sensitive and URLs stay compact in upper case")
        }
    }
}

@Suite struct MasterSecretTests {
    @Test func lengthsAreChecked() {
        #expect(throws: CheckInCodeError.invalidSecretLength(15)) { try MasterSecret(bytes: Array(repeating: 1, count: 15)) }
        #expect(throws: CheckInCodeError.invalidSecretLength(1025)) { try MasterSecret(bytes: Array(repeating: 1, count: 1025)) }
        #expect(throws: Never.self) { try MasterSecret(bytes: Array(repeating: 1, count: 16)) }
    }

    @Test func neverShowsItsBytes() throws {
        let secret = try MasterSecret(bytes: Array(repeating: 0x41, count: 20))
        #expect("\(secret)" == "MasterSecret(20 bytes, redacted)")
        #expect(String(reflecting: secret) == "MasterSecret(20 bytes, redacted)")
        #expect(Mirror(reflecting: secret).children.map(\.label) == ["count"])
    }
}

@Suite struct CheckInTokenTests {
    @Test func formatsAndParsesEveryField() throws {
        let token = CheckInToken(window: -2, sequence: 0xDEAD_BEEF, mac: Array(1...13))
        #expect(token.text.count == CheckInToken.length)
        #expect(token.text.hasPrefix("1"))
        #expect(token.text.allSatisfy { ("A"..."Z").contains($0) || ("2"..."7").contains($0) || $0 == "1" })
        #expect(try CheckInToken(parsing: token.text) == token)
    }

    @Test func base32MatchesRFC4648() {
        // RFC 4648 §10: BASE32("fooba") = "MZXW6YTB".
        #expect(Base32.encode(Array("fooba".utf8)) == "MZXW6YTB")
        #expect(Base32.decode(Substring("MZXW6YTB").utf8) == Array("fooba".utf8))
        #expect(Base32.decode(Substring("MZXW6YT1").utf8) == nil)
        #expect(Base32.decode(Substring("MZXW6YT").utf8) == nil)
    }

    @Test func parseErrorsSeparateUnknownVersionsFromGarbage() {
        #expect(throws: CheckInToken.ParseError.malformed) { try CheckInToken(parsing: "") }
        #expect(throws: CheckInToken.ParseError.malformed) { try CheckInToken(parsing: "1ABC") }
        #expect(throws: CheckInToken.ParseError.unknownVersion) { try CheckInToken(parsing: "2ABC") }
        #expect(throws: CheckInToken.ParseError.malformed) { try CheckInToken(parsing: "가ABC") }
    }
}

@Suite struct SafeNumberTests {
    @Test func theTableHas32DistinctHangulSyllablesWithoutFinalConsonants() {
        #expect(Set(SafeNumber.syllables).count == 32)
        for syllable in SafeNumber.syllables {
            let scalar = syllable.unicodeScalars.first!.value
            #expect((0xAC00...0xD7A3).contains(scalar))
            #expect((scalar - 0xAC00) % 28 == 0, "\(syllable) has a final consonant")
        }
    }

    @Test func shapeIsCheckedExactly() {
        #expect(SafeNumber.isWellFormed("12가34나"))
        #expect(SafeNumber.isWellFormed("00주99가"))
        #expect(!SafeNumber.isWellFormed("12현34규"))  // right shape, syllables not in the table
        #expect(!SafeNumber.isWellFormed("1가234나"))
        #expect(!SafeNumber.isWellFormed("12가34나5"))
        #expect(!SafeNumber.isWellFormed("12A34B"))
    }

    @Test func formatSpreadsOverTheWholeTable() {
        var seen = Set<Character>()
        for value in 0..<2000 {
            let number = SafeNumber.format(UInt64(value) &* 0x9E37_79B9_7F4A_7C15)
            #expect(SafeNumber.isWellFormed(number))
            seen.insert(Array(number)[2])
        }
        #expect(seen.count == 32)
    }
}

@Suite struct BaseURLTests {
    @Test func theDefaultIsValid() throws {
        try CheckInCodeIssuer.validateBaseURL(CheckInCodeIssuer.defaultBaseURL)
        try CheckInCodeIssuer.validateBaseURL("HTTP://10.0.0.1:8080/CHECK-IN")
    }

    @Test func badOnesAreRefusedWithAReason() {
        let cases = [
            ("checkin.example.org", "it must start with HTTPS:// or HTTP://"),
            ("HTTPS://", "it has no host"),
            ("HTTPS://X.ORG/C/", "drop the trailing '/'"),
            ("https://x.org/c", "write it in upper case (HTTPS://X.ORG/C) so the QR code stays small"),
            ("HTTPS://X.ORG/C?Q=1", "only 0-9, A-Z and $%*+-./: are allowed"),
        ]
        for (url, reason) in cases {
            #expect(throws: CheckInCodeError.invalidBaseURL(url, reason: reason)) { try CheckInCodeIssuer.validateBaseURL(url) }
        }
    }
}

/// The calendar both ways, across eras and leap days.
@Suite struct CivilDateTests {
    @Test func daysAndDatesAgree() {
        let known: [(Int64, CivilDate)] = [
            (0, CivilDate(year: 1970, month: 1, day: 1)), (-1, CivilDate(year: 1969, month: 12, day: 31)),
            (11_016, CivilDate(year: 2000, month: 2, day: 29)), (19_675, CivilDate(year: 2023, month: 11, day: 14)),
            (-719_468, CivilDate(year: 0, month: 3, day: 1)), (2_932_896, CivilDate(year: 9999, month: 12, day: 31)),
        ]
        for (days, date) in known {
            #expect(CivilDate(daysSince1970: days) == date)
            #expect(date.daysSince1970 == days)
        }
    }

    @Test func everyDayOfEightCenturiesRoundTrips() {
        let wrong = (Int64(-146_097)...Int64(146_097)).filter { CivilDate(daysSince1970: $0).daysSince1970 != $0 }
        #expect(wrong.isEmpty)
    }
}
