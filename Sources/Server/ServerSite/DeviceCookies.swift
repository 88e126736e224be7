import ServerDomain
import SharedDomain

/// The device cookie: the time it was issued and 128 random bits, which the phone keeps
/// (`HttpOnly`, `SameSite=Lax`, `Secure` over TLS). The ledger never sees the cookie, only its
/// issue time and a one-way hash of it (the device id), so a leaked visitor log does not let
/// anyone pose as a visitor's phone.
///
/// Why the issue time leads: the ledger's keys lead with the device id (schema version 3), and
/// B-trees keep keys in order. With random ids every new device's rows land on random pages,
/// so a group commit of 64 check-ins rewrote ~95 pages (SQLite, the ledger's schema, 100,000
/// devices); ids that start with the time their cookie was issued land on the last page, and
/// the same commit writes ~17. The time says no more than the device's first check-in in the
/// same log does.
public struct DeviceCookies: Sendable {
    /// The cookie's name.
    public static let name = "qrcheckin_device"
    /// A year: phones keep it across visits (browsers cap cookies at 400 days).
    public static let maxAgeSeconds = 365 * 86_400
    /// Hex digits of the issue time (48 bits of Unix milliseconds, enough until the year 10889).
    static let timeDigits = 12
    /// Hex digits of the random part (128 bits).
    static let randomDigits = 32

    private let random: @Sendable (Int) -> [UInt8]
    private let hash: @Sendable ([UInt8]) -> [UInt8]
    private let clock: any WallClock

    /// Cookies from `random` (a CSPRNG) issued at `clock`'s time, with ids from `hash` (a
    /// 16-byte one-way hash).
    public init(random: @escaping @Sendable (Int) -> [UInt8], hash: @escaping @Sendable ([UInt8]) -> [UInt8], clock: any WallClock) {
        self.random = random
        self.hash = hash
        self.clock = clock
    }

    /// A new cookie value: 44 lower-case hex digits, the issue time's 12 then 32 random ones.
    public func newCookie() -> String {
        let milliseconds = UInt64(clamping: max(0, clock.now().milliseconds))
        let time = (0..<6).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> (8 * UInt64($0))) }
        return Hex.encode(time + random(Self.randomDigits / 2))
    }

    /// The device id of a cookie value: the issue time's 12 hex digits, then 32 of the whole
    /// cookie's hash. A cookie of 32 digits (issued before the time led) keeps its id, the
    /// hash alone. Nil when the value is not one this server issues.
    public func device(for cookie: String) -> DeviceID? {
        let length = cookie.utf8.count
        guard length == Self.timeDigits + Self.randomDigits || length == Self.randomDigits,
              let bytes = Hex.decode(cookie) else { return nil }
        let time = length == Self.randomDigits ? [] : bytes[..<(Self.timeDigits / 2)]
        return DeviceID(Hex.encode(Array(time)) + Hex.encode(hash(bytes)))
    }

    /// The `Set-Cookie` value for `cookie`, scoped to the site's base path.
    public func header(_ cookie: String, path: String, secure: Bool) -> String {
        "\(Self.name)=\(cookie); Path=\(path); Max-Age=\(Self.maxAgeSeconds); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
