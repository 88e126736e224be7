import ServerSecondFactor
import Testing

@Suite struct OTPAuthURITests {
    static let secret = try! TOTPSecret(bytes: Array("12345678901234567890".utf8))

    @Test func theURIsShape() throws {
        let uri = try OTPAuthURI(issuer: "qrcheckin", account: "admin", secret: Self.secret)
        #expect(uri.text == "otpauth://totp/qrcheckin:admin?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=qrcheckin&period=30&digits=6&algorithm=SHA1")
    }

    @Test func namesArePercentEncodedAsUTF8WithSpacesAsPercent20() throws {
        let uri = try OTPAuthURI(issuer: "qrcheckin (서울 & Co)", account: "kim.min-ji_2@example.org", secret: Self.secret)
        #expect(uri.text.hasPrefix("otpauth://totp/qrcheckin%20%28%EC%84%9C%EC%9A%B8%20%26%20Co%29:kim.min-ji_2%40example.org?"))
        #expect(uri.text.contains("&issuer=qrcheckin%20%28%EC%84%9C%EC%9A%B8%20%26%20Co%29&"))
        #expect(!uri.text.contains("+") && !uri.text.contains(" "))
    }

    @Test func aColonOrNothingCannotLabelAnAccount() {
        for (issuer, account) in [("qr:checkin", "admin"), ("qrcheckin", "ad:min"), ("", "admin"), ("qrcheckin", "")] {
            #expect(throws: SecondFactorError.invalidLabel(issuer.isEmpty || issuer.contains(":") ? issuer : account)) {
                try OTPAuthURI(issuer: issuer, account: account, secret: Self.secret)
            }
        }
    }

    @Test func theIssuerNamesTheOrganisation() {
        #expect(OTPAuthURI.issuer(organisation: nil) == "qrcheckin")
        #expect(OTPAuthURI.issuer(organisation: "  ") == "qrcheckin")
        #expect(OTPAuthURI.issuer(organisation: "서울시청") == "qrcheckin (서울시청)")
        #expect(OTPAuthURI.issuer(organisation: " Acme: Events ") == "qrcheckin (Acme Events)")
    }

    @Test func aSecretIsTwentyRandomBytesAndNeverShowsItself() throws {
        var asked = [Int]()
        let secret = TOTPSecret.generate { count in asked.append(count); return Array(repeating: 0xAB, count: count) }
        #expect(asked == [20])
        #expect(try secret.base32().count == 32)
        #expect("\(secret)" == "TOTPSecret(20 bytes, redacted)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("171"), "dump shows no byte")
        #expect(throws: SecondFactorError.secretLength(15)) { try TOTPSecret(bytes: Array(repeating: 1, count: 15)) }
        #expect(throws: SecondFactorError.invalidBase32) { try TOTPSecret(base32: "not base32!") }
    }
}
