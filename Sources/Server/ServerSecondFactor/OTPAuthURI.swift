/// The `otpauth://totp/` URI an authenticator app scans to enrol (Google Authenticator's "Key
/// Uri Format", which every app reads): the issuer and account as the label, the secret in
/// base32, and the parameters spelt out although they are the defaults, so an app that
/// assumes others cannot get them wrong. It carries the secret: show it once, store it never.
public struct OTPAuthURI: Equatable, Sendable {
    /// The URI.
    public let text: String

    /// The issuer every account of qrcheckin's consoles is filed under in the app. An
    /// organisation's servers share one ledger (PostgreSQL) and so one set of accounts: the
    /// organisation (the `controller` setting), not a host, tells them apart from another
    /// organisation's. Colons, the label's separator, are left out.
    public static func issuer(organisation: String?) -> String {
        guard let organisation = organisation?.filter({ $0 != ":" }).trimmingSpaces, !organisation.isEmpty else {
            return "qrcheckin"
        }
        return "qrcheckin (\(organisation))"
    }

    /// The URI enrolling `account` of `issuer` with `secret`: `otpauth://totp/ISSUER:ACCOUNT?secret=…
    /// &issuer=ISSUER&period=30&digits=6&algorithm=SHA1`, each name percent-encoded as UTF-8
    /// (RFC 3986: everything but letters, digits and `-._~`; a space is `%20`, never `+`).
    public init(issuer: String, account: String, secret: TOTPSecret) throws(SecondFactorError) {
        for name in [issuer, account] where name.isEmpty || name.contains(":") {
            throw .invalidLabel(name)
        }
        let issuerText = Self.percentEncoded(issuer)
        text = "otpauth://totp/\(issuerText):\(Self.percentEncoded(account))?secret=\(try secret.base32())"
            + "&issuer=\(issuerText)&period=\(TOTP.period)&digits=\(TOTP.digits)&algorithm=SHA1"
    }

    /// `text`'s UTF-8 with every byte but RFC 3986's unreserved characters as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension String {
    /// The text without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
