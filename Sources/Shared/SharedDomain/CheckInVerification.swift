/// The answer of `CheckInCodeVerifier`: accepted, or one reason from a fixed list.
public enum CheckInVerification: Equatable, Sendable {
    /// The code is genuine and current.
    case valid(AcceptedCheckIn)
    /// The code was refused.
    case rejected(CheckInRejection)
}

/// What a verifier learned from a code it accepted.
public struct AcceptedCheckIn: Equatable, Sendable {
    /// The venue the code admits to.
    public let venue: VenueID
    /// The code's window.
    public let window: Int64
    /// The token's sequence number; nil for a safe number, which carries none.
    public let sequence: Int?
    /// Seconds until the verifier stops accepting it (end of window + skew, minus now).
    public let secondsLeft: Int64

    /// Creates the record of an accepted code.
    public init(venue: VenueID, window: Int64, sequence: Int?, secondsLeft: Int64) {
        self.venue = venue
        self.window = window
        self.sequence = sequence
        self.secondsLeft = secondsLeft
    }
}

/// One verification with everything learnt on the way, for `verify --json` and servers' logs.
/// Fields a verifier could not establish are nil: the window and sequence only once a MAC
/// matched (a forged token's claims are not repeated), the venue once one was named or given.
public struct VerificationReport: Equatable, Sendable {
    /// Valid, or the reason.
    public let verification: CheckInVerification
    /// The venue the code names (a URL) or was checked for (a token or safe number).
    public let venue: VenueID?
    /// The code's window, once its MAC matched.
    public let window: Int64?
    /// The token's sequence, once its MAC matched; nil for safe numbers.
    public let sequence: Int?
    /// Which key source matched (an index into `CheckInCodeVerifier.keys`).
    public let keyIndex: Int?
    /// The period, to turn the window into times.
    let period: RotationPeriod
    /// The moment the code was verified at (Unix seconds), when it was accepted.
    let unixTime: Int64?

    init(verification: CheckInVerification, venue: VenueID?, window: Int64?, sequence: Int?, keyIndex: Int?, period: RotationPeriod,
         unixTime: Int64? = nil) {
        self.verification = verification
        self.venue = venue
        self.window = window
        self.sequence = sequence
        self.keyIndex = keyIndex
        self.period = period
        self.unixTime = unixTime
    }

    static func rejected(_ reason: CheckInRejection, venue: VenueID?) -> VerificationReport {
        VerificationReport(verification: .rejected(reason), venue: venue, window: nil, sequence: nil, keyIndex: nil, period: .standard)
    }

    /// Whether the code was accepted.
    public var isValid: Bool {
        if case .valid = verification { return true }
        return false
    }

    /// The reason for a refusal; nil when valid.
    public var reason: CheckInRejection? {
        if case .rejected(let reason) = verification { return reason }
        return nil
    }

    /// Seconds until the verifier stops accepting the code; nil unless valid.
    public var secondsLeft: Int64? {
        if case .valid(let accepted) = verification { return accepted.secondsLeft }
        return nil
    }

    /// Seconds from the verification's moment until the code's window ends: what `current.json`
    /// calls `secondsLeft` and `code` `expiresIn` (negative for an earlier window's code the
    /// skew still accepts); nil unless valid. `secondsLeft` counts to the end of the skew.
    public var expiresIn: Int64? {
        guard isValid, let expiresAt, let unixTime else { return nil }
        return expiresAt - unixTime
    }

    /// When the code's window began, if known and a supported time.
    public var issuedAt: Int64? {
        window.map { period.start(ofWindow: $0) }.flatMap { CheckInTime.supported.contains($0) ? $0 : nil }
    }

    /// When the code's window ended, if known and a supported time.
    public var expiresAt: Int64? {
        window.map { period.end(ofWindow: $0) }.flatMap { CheckInTime.supported.contains($0) ? $0 : nil }
    }
}

/// Why a code was refused. The raw values are the words `qrcheckin verify` prints; servers may
/// rely on them.
public enum CheckInRejection: String, CaseIterable, Sendable {
    /// Not a check-in URL, token or safe number at all.
    case malformed
    /// A token of a format version this verifier does not know.
    case unknownVersion = "unknown-version"
    /// A bare token or safe number, and no venue to check it for.
    case noVenue = "no-venue"
    /// The URL names another venue than the one verifying, or one no key here serves.
    case wrongVenue = "wrong-venue"
    /// The MAC does not match: forged, altered, another secret or another period.
    case badMAC = "bad-mac"
    /// Genuine, but its window ended more than the skew ago.
    case expired
    /// Genuine, but its window starts more than the skew ahead (a kiosk clock runs fast).
    case notYetValid = "not-yet-valid"

    /// One line explaining the reason.
    public var explanation: String {
        switch self {
        case .malformed: "not a check-in URL, token or safe number of this format"
        case .unknownVersion: "the token's format version is not supported"
        case .noVenue: "a bare token or safe number needs a venue: pass --venue"
        case .wrongVenue: "the code belongs to another venue"
        case .badMAC: "the signature does not match: altered, forged, or another secret or period"
        case .expired: "the code's window is over"
        case .notYetValid: "the code's window has not started; check the kiosk's clock"
        }
    }
}
