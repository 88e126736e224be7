import COath
import SharedDomain
import ServerSecondFactor
import Testing

/// RFC 6238 through liboath: the Appendix B vectors (SHA-1), the window of one step either
/// side, the step matched, and the replay rule.
@Suite struct TOTPTests {
    /// RFC 6238 Appendix B's secret for SHA-1: the ASCII digits "12345678901234567890".
    static let rfcSecret = try! TOTPSecret(bytes: Array("12345678901234567890".utf8))
    let totp = TOTP(secret: rfcSecret)

    /// Appendix B's table for SHA-1: time, the step (hex in the RFC) and the 8-digit code.
    static let appendixB: [(time: Int64, step: Int64, code: String)] = [
        (59, 0x1, "94287082"), (1_111_111_109, 0x23523EC, "07081804"), (1_111_111_111, 0x23523ED, "14050471"),
        (1_234_567_890, 0x273EF07, "89005924"), (2_000_000_000, 0x3F940AA, "69279037"), (20_000_000_000, 0x27BC86AA, "65353130"),
    ]

    /// The table as the RFC prints it: liboath asked for eight digits.
    @Test(arguments: appendixB.map(\.time))
    func liboathComputesAppendixBsEightDigitCodes(time: Int64) throws {
        let vector = Self.appendixB.first { $0.time == time }!
        var output = [CChar](repeating: 0, count: 9)
        let secret = Array("12345678901234567890".utf8).map { CChar(bitPattern: $0) }
        #expect(oath_init() == OATH_OK.rawValue)
        #expect(oath_totp_generate2(secret, secret.count, time_t(time), 30, 0, 8, coath_totp_hmac_sha1, &output) == OATH_OK.rawValue)
        #expect(String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == vector.code)
    }

    /// Six digits are the last six of the eight (both are the same 31-bit number mod 10^n).
    @Test(arguments: appendixB.map(\.time))
    func sixDigitCodesAreAppendixBsLastSix(time: Int64) throws {
        let vector = Self.appendixB.first { $0.time == time }!
        let at = WallTime(seconds: time)
        #expect(try totp.code(at: at) == String(vector.code.suffix(6)))
        #expect(TOTPStep(containing: at).number == vector.step)
        #expect(try totp.matchedStep(for: String(vector.code.suffix(6)), at: at) == TOTPStep(number: vector.step))
    }

    @Test func aCodeMatchesOneStepEitherSideAndNoFurther() throws {
        let now = WallTime(seconds: 1_234_567_890)
        let step = TOTPStep(containing: now).number
        for offset: Int64 in -3...3 {
            let code = try totp.code(at: WallTime(seconds: (step + offset) * 30 + 7))
            let matched = try totp.matchedStep(for: code, at: now)
            #expect(matched == (abs(offset) <= 1 ? TOTPStep(number: step + offset) : nil), "offset \(offset)")
        }
    }

    @Test func theStepsEdgesAreExact() throws {
        // 1764892800 starts a step: its last second before and its first second.
        let before = WallTime(seconds: 1_764_892_799), start = WallTime(seconds: 1_764_892_800)
        #expect(TOTPStep(containing: start).number == TOTPStep(containing: before).number + 1)
        #expect(TOTPStep(containing: WallTime(milliseconds: 1_764_892_799_999)) == TOTPStep(containing: before))
        #expect(try totp.code(at: start) != totp.code(at: before))
        #expect(try totp.code(at: WallTime(seconds: 1_764_892_829)) == totp.code(at: start))
    }

    @Test func spacesAreIgnoredAndAnythingButSixDigitsIsMalformed() throws {
        let now = WallTime(seconds: 1_111_111_111)
        let code = try totp.code(at: now)
        let spaced = String(code.prefix(3)) + " " + String(code.suffix(3))
        #expect(try totp.verify(spaced, at: now, lastAccepted: nil) == .accepted(TOTPStep(containing: now)))
        // The RFC's 8-digit code is the right number, but never a 6-digit code's spelling.
        for typed in ["", "12345", "1234567", "14050471", "12345a", "１２３４５６", "-12345", "123\u{0}456"] {
            #expect(try totp.verify(typed, at: now, lastAccepted: nil) == .malformed, "\(typed.debugDescription)")
        }
        let wrong = String((Int(code)! + 1) % 1_000_000).leftPadded(to: 6)
        #expect(try totp.verify(wrong, at: now, lastAccepted: nil) == .wrong)
    }

    @Test func aCodeUsedOnceIsRefusedAgainAndSoIsAnyOlderStep() throws {
        let now = WallTime(seconds: 2_000_000_000)
        let step = TOTPStep(containing: now)
        let code = try totp.code(at: now)
        #expect(try totp.verify(code, at: now, lastAccepted: TOTPStep(number: step.number - 1)) == .accepted(step))
        // The same code again, within its step or the next (it is still inside the window).
        #expect(try totp.verify(code, at: now, lastAccepted: step) == .replayed(step))
        #expect(try totp.verify(code, at: WallTime(seconds: 2_000_000_000 + 30), lastAccepted: step) == .replayed(step))
        // The previous step's code, still in the window, after a newer one signed in.
        let previous = try totp.code(at: WallTime(seconds: 2_000_000_000 - 30))
        #expect(try totp.verify(previous, at: now, lastAccepted: step) == .replayed(TOTPStep(number: step.number - 1)))
        // The next step's code (a phone's clock ahead) is newer: it signs in.
        let next = try totp.code(at: WallTime(seconds: 2_000_000_000 + 30))
        #expect(try totp.verify(next, at: now, lastAccepted: step) == .accepted(TOTPStep(number: step.number + 1)))
    }

    @Test func theReplayRuleAlone() {
        let five = TOTPStep(number: 5)
        #expect(TOTPVerification.judging(matched: five, lastAccepted: nil) == .accepted(five))
        #expect(TOTPVerification.judging(matched: five, lastAccepted: TOTPStep(number: 4)) == .accepted(five))
        #expect(TOTPVerification.judging(matched: five, lastAccepted: five) == .replayed(five))
        #expect(TOTPVerification.judging(matched: five, lastAccepted: TOTPStep(number: 6)) == .replayed(five))
        #expect(TOTPVerification.judging(matched: five, lastAccepted: nil).isAccepted)
        #expect(!TOTPVerification.replayed(five).isAccepted && !TOTPVerification.wrong.isAccepted)
    }

    @Test func nothingMatchesBeforeTheEpochsSecondStep() throws {
        let code = try totp.code(at: WallTime(seconds: 0))
        #expect(try totp.matchedStep(for: code, at: WallTime(seconds: 29)) == nil)
        #expect(try totp.matchedStep(for: code, at: WallTime(seconds: 30)) == TOTPStep(number: 0))
        #expect(TOTPStep(containing: WallTime(seconds: -1)).number == -1)
    }
}

extension String {
    /// The text with zeros in front up to `length` characters.
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
