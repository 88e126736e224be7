/// Use case: signs the check-in code of a venue for a window (and a forced-refresh sequence).
public struct CheckInCodeIssuer: Sendable {
    /// The default URL prefix: upper case, so the whole URL uses QR's compact alphanumeric mode.
    public static let defaultBaseURL = "HTTPS://CHECKIN.EXAMPLE.ORG/C"
    /// The largest sequence number a token can carry (it is a u32 field).
    public static let maximumSequence = Int(UInt32.max)

    /// The URL prefix of every code.
    public let baseURL: String
    /// The window length.
    public let period: RotationPeriod
    private let secret: MasterSecret
    private let authenticator: any MessageAuthenticator

    /// Creates an issuer; check `baseURL` with `validateBaseURL(_:)` first.
    public init(secret: MasterSecret, baseURL: String, period: RotationPeriod, authenticator: any MessageAuthenticator) {
        self.secret = secret
        self.baseURL = baseURL
        self.period = period
        self.authenticator = authenticator
    }

    /// The code of `venue` for `window`; `sequence` (0...maximumSequence) counts forced refreshes.
    public func code(for venue: VenueID, window: Int64, sequence: Int) -> CheckInCode {
        precondition((0...Self.maximumSequence).contains(sequence), "sequence out of range: \(sequence)")
        let key = VenueKey(secret: secret, venue: venue, period: period, authenticator: authenticator)
        return Self.code(key: key, baseURL: baseURL, window: window, sequence: sequence)
    }

    /// The HMAC adapter, for `VenueCodeIssuer.init(venue:issuer:)`.
    var authenticatorForBinding: any MessageAuthenticator { authenticator }

    /// The master secret as a key source, for issuers bound to one venue.
    public var keySource: SigningKeySource { .master(secret) }

    /// The code signed with `key` for `window` and `sequence` (0...maximumSequence).
    static func code(key: VenueKey, baseURL: String, window: Int64, sequence: Int) -> CheckInCode {
        let sequenceField = UInt32(sequence)
        let token = CheckInToken(window: window, sequence: sequenceField,
                                 mac: key.tokenMAC(window: window, sequence: sequenceField)).text
        return CheckInCode(
            venue: key.venue, window: window, sequence: sequence, token: token,
            url: "\(baseURL)/\(key.venue.rawValue)/\(token)", safeNumber: key.safeNumber(window: window),
            issuedAt: key.period.start(ofWindow: window), expiresAt: key.period.end(ofWindow: window))
    }

    /// The code of `venue` at `unixTime` (its window).
    public func code(for venue: VenueID, at unixTime: Int64, sequence: Int = 0) -> CheckInCode {
        code(for: venue, window: period.window(at: unixTime), sequence: sequence)
    }

    /// Checks a base URL: `http://` or `https://`, then only QR alphanumeric characters other
    /// than space (so the URL stays compact), no trailing slash, at most 200 characters.
    public static func validateBaseURL(_ text: String) throws(CheckInCodeError) {
        let upper = text.uppercased()
        guard upper.hasPrefix("HTTPS://") || upper.hasPrefix("HTTP://") else {
            throw .invalidBaseURL(text, reason: "it must start with HTTPS:// or HTTP://")
        }
        guard text.utf8.count <= 200 else { throw .invalidBaseURL(text, reason: "it is longer than 200 characters") }
        let host = upper.drop { $0 != "/" }.dropFirst(2)
        guard !host.isEmpty, host.first != "/" else { throw .invalidBaseURL(text, reason: "it has no host") }
        guard !text.hasSuffix("/") else { throw .invalidBaseURL(text, reason: "drop the trailing '/'") }
        for byte in text.utf8 where !isCompactURLCharacter(byte) {
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                throw .invalidBaseURL(text, reason: "write it in upper case (\(upper)) so the QR code stays small")
            }
            throw .invalidBaseURL(text, reason: "only 0-9, A-Z and $%*+-./: are allowed")
        }
    }

    /// QR alphanumeric characters except space.
    static func isCompactURLCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            Array("$%*+-./:".utf8).contains(byte)
        }
    }
}
