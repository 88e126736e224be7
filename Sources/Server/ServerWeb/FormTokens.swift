import ServerDomain
import SharedDomain

/// The hidden token of the visitor pages' forms (CSRF): the form's purpose and venue, the device it
/// was shown to and when, signed with the form key (`SiteKeys`). A post is taken only with a
/// token of this server, for this form, from the same device (or from none, for a phone
/// without a cookie), at most an hour old. With the cross-site check (`HTTPRequest.isCrossSite`)
/// a page on another site cannot post the form in a visitor's name. The console's forms carry
/// their session's token in the same field (`field`).
public struct FormTokens: Sendable {
    /// The hidden input's name.
    public static let field = "form-token"
    /// An hour: a form left open on a table still works.
    public static let lifetimeSeconds: Int64 = 3600

    private let keys: SiteKeys
    private let authenticator: any MessageAuthenticator

    /// Tokens signed with `keys`' form key.
    public init(keys: SiteKeys, authenticator: any MessageAuthenticator) {
        self.keys = keys
        self.authenticator = authenticator
    }

    /// The token of form `purpose` at `venue` shown to `device` (nil: no cookie) at `now`.
    public func issue(_ purpose: String, venue: VenueID, device: DeviceID?, at now: WallTime) -> String {
        let seconds = String(now.seconds)
        return seconds + "." + Hex.encode(mac(purpose, venue, device, seconds, key: keys.signing(.formToken)))
    }

    /// Whether `token` was issued for form `purpose` at `venue` to `device`, within its lifetime.
    public func isValid(_ token: String?, _ purpose: String, venue: VenueID, device: DeviceID?, at now: WallTime) -> Bool {
        issuedAt(token, purpose, venue: venue, device: device, at: now) != nil
    }

    /// When `token` was issued, if it was issued for `purpose` at `venue` to `device` and is
    /// within its lifetime (a signed moment: the receipt's `seen`).
    public func issuedAt(_ token: String?, _ purpose: String, venue: VenueID, device: DeviceID?, at now: WallTime) -> WallTime? {
        guard let token, token.utf8.count <= 64 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let issued = Int64(parts[0]), parts[0].first != "+", let given = Hex.decode(String(parts[1])),
              issued <= now.seconds + 300, now.seconds - issued <= Self.lifetimeSeconds else { return nil }
        let genuine = keys.verifying(.formToken).contains {
            authenticator.isEqualInConstantTime(mac(purpose, venue, device, String(parts[0]), key: $0), given)
        }
        return genuine ? WallTime(seconds: issued) : nil
    }

    private func mac(_ purpose: String, _ venue: VenueID, _ device: DeviceID?, _ seconds: String, key: [UInt8]) -> [UInt8] {
        let text = "form|\(purpose)|\(venue.rawValue)|\(device?.rawValue ?? "-")|\(seconds)"
        return Array(authenticator.authenticationCode(for: Array(text.utf8), key: key).prefix(16))
    }
}
