import Foundation
import SharedDomain
import ServerSecondFactor
import Testing

/// vectors/pyotp-totp.json: codes and otpauth URIs from pyotp (PyPI), a client nobody here
/// wrote (Tests/e2e/totp_vectors.py writes the file; test_totp_vectors.py checks it is still
/// pyotp's). Our codes are its codes, its codes sign in, and our URIs are the ones it reads.
@Suite struct PyOTPVectorTests {
    static func document() throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("vectors/pyotp-totp.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test func everyCodeOfPyotpIsOursAndSignsIn() throws {
        let codes = try #require(try Self.document()["codes"] as? [[String: Any]])
        #expect(codes.count >= 50)
        for vector in codes {
            let secret = try TOTPSecret(base32: vector["secret"] as! String)
            let time = WallTime(seconds: (vector["time"] as! NSNumber).int64Value)
            let code = vector["code"] as! String
            let totp = TOTP(secret: secret)
            #expect(try totp.code(at: time) == code, "\(vector)")
            #expect(try totp.verify(code, at: time, lastAccepted: nil) == .accepted(TOTPStep(containing: time)), "\(vector)")
            // A secret typed in lower case, as some apps show it, is the same secret.
            #expect(try TOTPSecret(base32: (vector["secret"] as! String).lowercased()) == secret)
        }
    }

    @Test func ourURIsArePercentEncodedAsPyotpReadsThem() throws {
        let uris = try #require(try Self.document()["uris"] as? [[String: Any]])
        #expect(uris.count >= 4)
        for vector in uris {
            let issuer = vector["issuer"] as! String, account = vector["account"] as! String
            let secret = try TOTPSecret(base32: vector["secret"] as! String)
            let uri = try OTPAuthURI(issuer: issuer, account: account, secret: secret)
            #expect(uri.text == vector["uri"] as! String)
            // What pyotp read from that text: the names, the secret and the parameters back.
            let read = vector["pyotp"] as! [String: Any]
            #expect(read["issuer"] as? String == issuer && read["name"] as? String == account)
            #expect(read["secret"] as? String == vector["secret"] as? String)
            #expect((read["digits"] as! NSNumber).intValue == TOTP.digits && (read["interval"] as! NSNumber).int64Value == TOTP.period)
            #expect(try TOTP(secret: secret).code(at: WallTime(seconds: 59)) == read["code_at_59"] as? String)
        }
    }
}
