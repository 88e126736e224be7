import CheckInServerDomain

/// The device cookie: 128 random bits the phone keeps (`HttpOnly`, `SameSite=Lax`, `Secure`
/// over TLS). The ledger never sees the cookie, only a one-way hash of it (the device id), so
/// a leaked visitor log does not let anyone pose as a visitor's phone.
public struct DeviceCookies: Sendable {
    /// The cookie's name.
    public static let name = "qrcheckin_device"
    /// A year: phones keep it across visits (browsers cap cookies at 400 days).
    public static let maxAgeSeconds = 365 * 86_400

    private let random: @Sendable (Int) -> [UInt8]
    private let hash: @Sendable ([UInt8]) -> [UInt8]

    /// Cookies from `random` (a CSPRNG) with ids from `hash` (a 16-byte one-way hash).
    public init(random: @escaping @Sendable (Int) -> [UInt8], hash: @escaping @Sendable ([UInt8]) -> [UInt8]) {
        self.random = random
        self.hash = hash
    }

    /// A new cookie value: 32 lower-case hex digits.
    public func newCookie() -> String { Hex.encode(random(16)) }

    /// The device id of a cookie value; nil when the value is not one this server issues.
    public func device(for cookie: String) -> DeviceID? {
        guard cookie.utf8.count == 32, let bytes = Hex.decode(cookie) else { return nil }
        return DeviceID(Hex.encode(hash(bytes)))
    }

    /// The `Set-Cookie` value for `cookie`, scoped to the site's base path.
    public func header(_ cookie: String, path: String, secure: Bool) -> String {
        "\(Self.name)=\(cookie); Path=\(path); Max-Age=\(Self.maxAgeSeconds); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}

/// Lower-case hexadecimal text of bytes.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of hex text (either case); nil for an odd length or another character.
    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
