import ServerDomain
import SharedDomain

/// A scan waiting for its visitor form: which venue, which code, and when the server verified
/// it, signed with a key of this process, so the form's answer is checked in at the moment of
/// the scan (the code may have expired while the visitor typed) and cannot be forged.
public struct VisitorTickets: Sendable {
    /// Minutes a form may take.
    public static let lifetimeSeconds: Int64 = 15 * 60

    private let key: [UInt8]
    private let authenticator: any MessageAuthenticator

    /// Tickets signed with `key` (random per process: a restart voids pending forms).
    public init(key: [UInt8], authenticator: any MessageAuthenticator) {
        self.key = key
        self.authenticator = authenticator
    }

    /// The ticket of `code` at `venue`, verified at `verifiedAt`.
    public func issue(venue: VenueID, code: Scan.Code, verifiedAt: WallTime) -> String {
        let payload = Hex.encode(Array(Self.payload(venue: venue, code: code, verifiedAt: verifiedAt).utf8))
        return payload + "." + Hex.encode(Array(authenticator.authenticationCode(for: Array(payload.utf8), key: key).prefix(16)))
    }

    /// The scan a ticket stands for, if it is genuine, for `venue`, and not older than its lifetime.
    public func redeem(_ ticket: String, venue: VenueID, now: WallTime) -> (code: Scan.Code, verifiedAt: WallTime)? {
        let parts = ticket.split(separator: ".", omittingEmptySubsequences: false)
        guard ticket.utf8.count <= 512, parts.count == 2, let mac = Hex.decode(String(parts[1])), mac.count == 16 else { return nil }
        let expected = Array(authenticator.authenticationCode(for: Array(parts[0].utf8), key: key).prefix(16))
        guard authenticator.isEqualInConstantTime(expected, mac), let bytes = Hex.decode(String(parts[0])),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let fields = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5, fields[0] == "1", fields[1] == venue.rawValue, let milliseconds = Int64(fields[4]) else { return nil }
        let verifiedAt = WallTime(milliseconds: milliseconds)
        guard now.milliseconds - milliseconds <= Self.lifetimeSeconds * 1000, milliseconds <= now.milliseconds else { return nil }
        switch fields[2] {
        case "t": return (.token(fields[3]), verifiedAt)
        case "s": return (.safeNumber(fields[3]), verifiedAt)
        default: return nil
        }
    }

    private static func payload(venue: VenueID, code: Scan.Code, verifiedAt: WallTime) -> String {
        let (kind, text) = switch code {
        case .token(let token): ("t", token)
        case .safeNumber(let number): ("s", number)
        }
        return "1|\(venue.rawValue)|\(kind)|\(text.filter { $0 != "|" })|\(verifiedAt.milliseconds)"
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

    /// The visitor a cookie value holds; nil when it is not one.
    public static func visitor(_ value: String) -> Visitor? {
        guard value.utf8.count <= 1024, let bytes = Hex.decode(value), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Visitor(name: String(parts[0]), phone: String(parts[1]))
    }
}
