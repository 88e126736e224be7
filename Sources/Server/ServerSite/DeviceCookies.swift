import ServerDomain
import SharedDomain

/// The device cookie: the time it was issued, 128 random bits and a MAC of both under the
/// server's cookie key (`SiteKeys`), which the phone keeps (`HttpOnly`, `SameSite=Lax`,
/// `Secure` over TLS). The ledger never sees the cookie, only its issue time and a one-way hash
/// of it (the device id), so a leaked visitor log does not let anyone pose as a visitor's phone.
///
/// The MAC is why a cookie cannot be made up: a phone with a cookie is a device the server
/// issued (and counted against the new-device budgets), never one a script invented to skip
/// them. A cookie with a bad MAC, another shape, or an issue time in the future (beyond a few
/// minutes of clock skew) or older than its lifetime is no cookie at all. Cookies of earlier
/// versions carried no MAC: a phone that still has one gets a new device (once).
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
    /// Hex digits of the issue time (48 bits of Unix milliseconds).
    static let timeDigits = 12
    /// Hex digits of the random part (128 bits).
    static let randomDigits = 32
    /// Hex digits of the MAC (64 bits: a forger's odds per try are 2^-64).
    static let macDigits = 16
    /// How far ahead of this server's clock an issue time may be (another server's clock).
    static let skewMilliseconds: Int64 = 300_000

    private let random: @Sendable (Int) -> [UInt8]
    private let hash: @Sendable ([UInt8]) -> [UInt8]
    private let keys: SiteKeys
    private let authenticator: any MessageAuthenticator
    private let clock: any WallClock

    /// Cookies from `random` (a CSPRNG) issued at `clock`'s time, signed with `keys`' cookie
    /// key by `authenticator`, with ids from `hash` (a 16-byte one-way hash).
    public init(random: @escaping @Sendable (Int) -> [UInt8], hash: @escaping @Sendable ([UInt8]) -> [UInt8], keys: SiteKeys,
                authenticator: any MessageAuthenticator, clock: any WallClock) {
        self.random = random
        self.hash = hash
        self.keys = keys
        self.authenticator = authenticator
        self.clock = clock
    }

    /// A new cookie value: 60 lower-case hex digits, the issue time's 12, 32 random ones, and
    /// the MAC's 16.
    public func newCookie() -> String { newDevice().cookie }

    /// A new cookie and the device id it names: what `device(for:)` says of it, without
    /// checking again the MAC just made (a new phone's scan paid for two MACs and a hex decode).
    public func newDevice() -> (cookie: String, device: DeviceID) {
        let milliseconds = UInt64(clamping: max(0, clock.now().milliseconds))
        let body = (0..<6).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> (8 * UInt64($0))) } + random(Self.randomDigits / 2)
        let cookie = Hex.encode(body + mac(body, key: keys.signing(.deviceCookie)))
        // Hex digits and a hash's: always a valid id.
        return (cookie, DeviceID(Hex.encode(Array(body[..<(Self.timeDigits / 2)])) + Hex.encode(hash(body)))!)
    }

    /// The device id of a cookie value: the issue time's 12 hex digits, then 32 of the hash of
    /// the time and random part. Nil when the value is not a cookie this server issued (its
    /// shape, its MAC) or its issue time is not plausible.
    public func device(for cookie: String) -> DeviceID? {
        guard cookie.utf8.count == Self.timeDigits + Self.randomDigits + Self.macDigits, let bytes = Hex.decode(cookie) else { return nil }
        let body = Array(bytes[..<((Self.timeDigits + Self.randomDigits) / 2)])
        let given = Array(bytes[((Self.timeDigits + Self.randomDigits) / 2)...])
        guard keys.verifying(.deviceCookie).contains(where: { authenticator.isEqualInConstantTime(mac(body, key: $0), given) }) else { return nil }
        let issued = body[..<(Self.timeDigits / 2)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let now = clock.now().milliseconds
        guard issued <= now + Self.skewMilliseconds, now - issued <= Int64(Self.maxAgeSeconds + 35 * 86_400) * 1000 else { return nil }
        return DeviceID(Hex.encode(Array(body[..<(Self.timeDigits / 2)])) + Hex.encode(hash(body)))
    }

    /// The `Set-Cookie` value for `cookie`, scoped to the site's base path.
    public func header(_ cookie: String, path: String, secure: Bool) -> String {
        "\(Self.name)=\(cookie); Path=\(path); Max-Age=\(Self.maxAgeSeconds); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    private func mac(_ body: [UInt8], key: [UInt8]) -> [UInt8] {
        Array(authenticator.authenticationCode(for: Array("device-cookie:".utf8) + body, key: key).prefix(Self.macDigits / 2))
    }
}
