/// Use case: decides offline whether a scanned URL, a token or a typed safe number is a live
/// code, TOTP-style: the MAC must match and the window must be within ±`skew` windows of now.
public struct CheckInCodeVerifier: Sendable {
    /// The default tolerance: one window each way, for kiosk clocks and slow scans.
    public static let defaultSkew = 1
    /// How far beyond the skew a safe number is still recognised to say expired/not-yet-valid.
    static let safeNumberLookaround: Int64 = 4

    /// The window length the codes were issued with.
    public let period: RotationPeriod
    /// Windows accepted on either side of the current one.
    public let skew: Int
    private let secret: MasterSecret
    private let authenticator: any MessageAuthenticator

    /// Creates a verifier; `skew` ≥ 0.
    public init(secret: MasterSecret, period: RotationPeriod, skew: Int = defaultSkew, authenticator: any MessageAuthenticator) {
        precondition(skew >= 0, "skew cannot be negative")
        self.secret = secret
        self.period = period
        self.skew = skew
        self.authenticator = authenticator
    }

    /// Verifies a URL (`…/<VENUE>/<TOKEN>`) or a bare token. A URL's venue must equal
    /// `expectedVenue` when one is given; a bare token is checked for `expectedVenue ?? .demo`.
    public func verify(_ urlOrToken: String, expectedVenue: VenueID?, at unixTime: Int64) -> CheckInVerification {
        let parts = urlOrToken.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 || parts.count == 1 else { return .rejected(.malformed) }
        let venue: VenueID
        if parts.count == 1 {
            venue = expectedVenue ?? .demo
        } else {
            guard let named = try? VenueID(String(parts[parts.count - 2])) else { return .rejected(.malformed) }
            if let expectedVenue, expectedVenue != named {
                // Parse the token first: an unreadable token is malformed whatever venue it names.
                if case .rejected(let reason) = parse(String(parts[parts.count - 1])) { return .rejected(reason) }
                return .rejected(.wrongVenue)
            }
            venue = named
        }
        return verify(token: String(parts[parts.count - 1]), venue: venue, at: unixTime)
    }

    /// Verifies a bare token for `venue`: format, then MAC, then time, so a forged token is
    /// reported as bad-mac whatever window it claims.
    public func verify(token: String, venue: VenueID, at unixTime: Int64) -> CheckInVerification {
        let parsed: CheckInToken
        switch parse(token) {
        case .rejected(let reason): return .rejected(reason)
        case .valid(let token): parsed = token
        }
        let key = VenueKey(secret: secret, venue: venue, period: period, authenticator: authenticator)
        guard key.isEqual(key.tokenMAC(window: parsed.window, sequence: parsed.sequence), parsed.mac) else {
            return .rejected(.badMAC)
        }
        return timing(of: parsed.window, venue: venue, sequence: Int(parsed.sequence), at: unixTime)
    }

    /// Verifies a typed safe number for `venue`: it must match the safe number of a window within
    /// the skew. Every candidate is compared in constant time.
    public func verify(safeNumber: String, venue: VenueID, at unixTime: Int64) -> CheckInVerification {
        guard SafeNumber.isWellFormed(safeNumber) else { return .rejected(.malformed) }
        let key = VenueKey(secret: secret, venue: venue, period: period, authenticator: authenticator)
        let now = period.window(at: unixTime)
        let reach = Int64(skew) + Self.safeNumberLookaround
        let typed = Array(safeNumber.utf8)
        // Nearest windows first, so the current window wins over a coincidental match further out.
        var offsets: [Int64] = [0]
        for distance in 1...reach { offsets += [-distance, distance] }
        for offset in offsets {
            let window = now + offset
            if key.isEqual(Array(key.safeNumber(window: window).utf8), typed) {
                return timing(of: window, venue: venue, sequence: nil, at: unixTime)
            }
        }
        return .rejected(.badMAC)
    }

    private enum Parsed {
        case valid(CheckInToken)
        case rejected(CheckInRejection)
    }

    private func parse(_ token: String) -> Parsed {
        do {
            return .valid(try CheckInToken(parsing: token))
        } catch {
            return .rejected(error == .unknownVersion ? .unknownVersion : .malformed)
        }
    }

    private func timing(of window: Int64, venue: VenueID, sequence: Int?, at unixTime: Int64) -> CheckInVerification {
        let now = period.window(at: unixTime)
        let skew = Int64(skew)
        // A signed window can be anywhere in Int64; a difference that overflows is far out of reach.
        let (distance, overflow) = window.subtractingReportingOverflow(now)
        if overflow { return .rejected(window < now ? .expired : .notYetValid) }
        if distance < -skew { return .rejected(.expired) }
        if distance > skew { return .rejected(.notYetValid) }
        let secondsLeft = period.end(ofWindow: window + skew) - unixTime
        return .valid(AcceptedCheckIn(venue: venue, window: window, sequence: sequence, secondsLeft: secondsLeft))
    }
}
