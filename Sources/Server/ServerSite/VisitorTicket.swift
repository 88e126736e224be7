import ServerDomain
import SharedDomain
import Synchronization

/// A scan waiting for its visitor form: which venue, which code, when the server verified it,
/// and the device it was issued to, signed with the server's ticket key (`SiteKeys`), so the
/// form's answer is checked in at the moment of the scan (the code may have expired while the
/// visitor typed) and cannot be forged. A ticket is good once, from its own device, for 15
/// minutes: it is no pass for planting names from elsewhere.
public final class VisitorTickets: Sendable {
    /// Minutes a form may take.
    public static let lifetimeSeconds: Int64 = 15 * 60
    /// Redeemed tickets remembered at most (each for its lifetime); past this many within 15
    /// minutes, forms are refused until the oldest expire (a flood, not visitors).
    public static let redeemedLimit = 100_000

    /// Why a ticket was not taken.
    public enum Refusal: Error, Hashable, Sendable {
        /// Not a ticket of this server, for this venue, or older than its lifetime.
        case invalid
        /// Issued to another device (or the request came without the device's cookie).
        case otherDevice
        /// Already used once.
        case used
    }

    private let keys: SiteKeys
    private let authenticator: any MessageAuthenticator
    /// MACs of redeemed tickets and when each expires (ms), pruned as they expire.
    private let redeemed = Mutex<[[UInt8]: Int64]>([:])

    /// Tickets signed with `keys`' ticket key.
    public init(keys: SiteKeys, authenticator: any MessageAuthenticator) {
        self.keys = keys
        self.authenticator = authenticator
    }

    /// The ticket of `code` at `venue`, verified at `verifiedAt`, for `device`.
    public func issue(venue: VenueID, code: Scan.Code, verifiedAt: WallTime, device: DeviceID) -> String {
        let payload = Hex.encode(Array(Self.payload(venue: venue, code: code, verifiedAt: verifiedAt, device: device).utf8))
        return payload + "." + Hex.encode(mac(payload, key: keys.signing(.visitorTicket)))
    }

    /// The scan a ticket stands for, if it is genuine, for `venue` and `device`, not older than
    /// its lifetime and not used yet; using it marks it used.
    public func redeem(_ ticket: String, venue: VenueID, device: DeviceID?, now: WallTime) throws(Refusal) -> (code: Scan.Code, verifiedAt: WallTime) {
        let parts = ticket.split(separator: ".", omittingEmptySubsequences: false)
        guard ticket.utf8.count <= 512, parts.count == 2, let given = Hex.decode(String(parts[1])), given.count == 16,
              keys.verifying(.visitorTicket).contains(where: { authenticator.isEqualInConstantTime(mac(String(parts[0]), key: $0), given) }),
              let bytes = Hex.decode(String(parts[0])), let text = String(validating: bytes, as: UTF8.self) else { throw .invalid }
        let fields = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, fields[0] == "2", fields[1] == venue.rawValue, let milliseconds = Int64(fields[4]) else { throw .invalid }
        let expires = milliseconds + Self.lifetimeSeconds * 1000
        guard now.milliseconds < expires, milliseconds <= now.milliseconds else { throw .invalid }
        guard let device, fields[5] == device.rawValue else { throw .otherDevice }
        let code: Scan.Code
        switch fields[2] {
        case "t": code = .token(fields[3])
        case "s": code = .safeNumber(fields[3])
        default: throw .invalid
        }
        try markUsed(given, expires: expires, now: now.milliseconds)
        return (code, WallTime(milliseconds: milliseconds))
    }

    private func markUsed(_ mac: [UInt8], expires: Int64, now: Int64) throws(Refusal) {
        let fresh = redeemed.withLock { redeemed in
            if redeemed[mac] != nil { return false }
            if redeemed.count >= Self.redeemedLimit { redeemed = redeemed.filter { $0.value > now } }
            guard redeemed.count < Self.redeemedLimit else { return false }
            redeemed[mac] = expires
            return true
        }
        guard fresh else { throw .used }
    }

    private func mac(_ payload: String, key: [UInt8]) -> [UInt8] {
        Array(authenticator.authenticationCode(for: Array(payload.utf8), key: key).prefix(16))
    }

    private static func payload(venue: VenueID, code: Scan.Code, verifiedAt: WallTime, device: DeviceID) -> String {
        let (kind, text) = switch code {
        case .token(let token): ("t", token)
        case .safeNumber(let number): ("s", number)
        }
        return "2|\(venue.rawValue)|\(kind)|\(text.filter { $0 != "|" })|\(verifiedAt.milliseconds)|\(device.rawValue)"
    }
}

/// The visitor fields remembered on the device (a cookie of hex UTF-8: `name` LF `phone`).
public enum VisitorCookie {
    /// The cookie's name.
    public static let name = "qrcheckin_visitor"

    /// The cookie value for `visitor`.
    public static func value(_ visitor: Visitor) -> String {
        Hex.encode(Array(((visitor.name ?? "") + "\n" + (visitor.phone ?? "")).utf8))
    }

    /// The visitor a cookie value holds; nil when it is not one, or holds what the form would
    /// refuse (a name too long or with control or bidi characters, a phone that is no number):
    /// the cookie is the phone's to change, so it is checked like the form.
    public static func visitor(_ value: String) -> Visitor? {
        guard value.utf8.count <= 1024, let bytes = Hex.decode(value), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let typed = String(parts[0]), phone = String(parts[1])
        let name = Visitor.acceptableName(typed)
        guard name != nil || typed.allSatisfy(\.isWhitespace), phone.isEmpty || Visitor.normalizedPhone(phone) != nil else { return nil }
        return Visitor(name: name, phone: phone)
    }
}
