import SharedDomain
import SharedQR
import SharedQREncoder
import SharedSystem
import ServerSecondFactor
import Testing

/// An enrolment end to end, without a ledger: what is shown works with what is kept.
@Suite struct TOTPEnrolmentTests {
    static let keys = SecondFactorKeys(sources: [.master(try! MasterSecret(bytes: Array(0..<32)))], authenticator: HMACAuthenticator())
    let sealer = TOTPSecretSealer(keys: Self.keys, authenticator: HMACAuthenticator(), random: SecureRandom.bytes)
    let hasher = RecoveryCodeHasher(keys: Self.keys, authenticator: HMACAuthenticator())

    @Test func whatIsShownSignsInAgainstWhatIsKept() throws {
        let enrolment = try TOTPEnrolment(account: "admin", issuer: OTPAuthURI.issuer(organisation: "Acme"), sealer: sealer,
                                          hasher: hasher, random: SecureRandom.bytes)
        let secret = try sealer.open(enrolment.sealedSecret, account: "admin").secret
        #expect(enrolment.uri == (try OTPAuthURI(issuer: "qrcheckin (Acme)", account: "admin", secret: secret)))
        let now = WallTime(seconds: 1_764_892_815)
        let code = try TOTP(secret: secret).code(at: now)
        #expect(try TOTP(secret: secret).verify(code, at: now, lastAccepted: nil) == .accepted(TOTPStep(containing: now)))
        #expect(enrolment.recoveryCodes.count == 10 && enrolment.recoveryCodeHashes.count == 10)
        for (code, hash) in zip(enrolment.recoveryCodes, enrolment.recoveryCodeHashes) {
            #expect(hasher.match(code.display, account: "admin", among: enrolment.recoveryCodeHashes) == hash)
        }
    }

    @Test func twoEnrolmentsShareNothing() throws {
        let first = try TOTPEnrolment(account: "admin", issuer: "qrcheckin", sealer: sealer, hasher: hasher, random: SecureRandom.bytes)
        let second = try TOTPEnrolment(account: "admin", issuer: "qrcheckin", sealer: sealer, hasher: hasher, random: SecureRandom.bytes)
        #expect(first.uri != second.uri && first.sealedSecret != second.sealedSecret)
        #expect(Set(first.recoveryCodeHashes).isDisjoint(with: second.recoveryCodeHashes))
    }
}

/// The enrolment's QR code is the kiosk's: SharedQR's renderers over libqrencode, no second
/// implementation.
@Suite struct EnrolmentQRTests {
    static let uri = "otpauth://totp/qrcheckin%20%28Acme%20Events%29:kim.min-ji_2%40example.org?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        + "&issuer=qrcheckin%20%28Acme%20Events%29&period=30&digits=6&algorithm=SHA1"

    @Test(arguments: TerminalStyle.allCases)
    func terminalTextIsTheSharedRenderersDrawingOfLibqrencodesSymbol(style: TerminalStyle) throws {
        let text = try EnrolmentQR().terminalText(Self.uri, style: style)
        let matrix = try QRCodeEncoder().encode(Self.uri, level: .low)
        #expect(text == TerminalQRRenderer(style: style, margin: 2).render(matrix))
    }

    @Test func aShortNamesEnrolmentFitsAnEightyByTwentyFourTerminalAndTheLongestIsVersionTen() throws {
        let secret = try TOTPSecret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        let short = try OTPAuthURI(issuer: OTPAuthURI.issuer(organisation: nil), account: "admin", secret: secret)
        let lines = try EnrolmentQR().terminalText(short.text, style: .utf8).split(separator: "\n")
        #expect(try QRCodeEncoder().encode(short.text, level: EnrolmentQR.level).version == 6)
        #expect(lines.count == 23 && lines.allSatisfy { $0.count == 45 })
        let longest = try OTPAuthURI(issuer: OTPAuthURI.issuer(organisation: String(repeating: "x", count: 20)),
                                     account: String(repeating: "a", count: 64), secret: secret)
        #expect(try QRCodeEncoder().encode(longest.text, level: EnrolmentQR.level).version == 10)
    }

    @Test func theSVGIsAnElementForAPage() throws {
        let element = try EnrolmentQR().svgElement(Self.uri)
        let matrix = try QRCodeEncoder().encode(Self.uri, level: .low)
        #expect(element.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" ") && element.hasSuffix("</svg>\n"))
        #expect(SVGRenderer(scale: 4, margin: 4).render(matrix) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element)
    }

    @Test func aTextTooLongIsATypedError() {
        #expect(throws: QREncodingError.tooLong(bytes: 2954, limit: 2953, level: .low)) {
            try EnrolmentQR().terminalText(String(repeating: "a", count: 2954), style: .ascii)
        }
    }
}
