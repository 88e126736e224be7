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

/// Why a code was refused. The raw values are the words `qrcheckin verify` prints; servers may
/// rely on them.
public enum CheckInRejection: String, CaseIterable, Sendable {
    /// Not a check-in URL, token or safe number at all.
    case malformed
    /// A token of a format version this verifier does not know.
    case unknownVersion = "unknown-version"
    /// The URL names another venue than the one verifying.
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
        case .wrongVenue: "the code belongs to another venue"
        case .badMAC: "the signature does not match: altered, forged, or another secret or period"
        case .expired: "the code's window is over"
        case .notYetValid: "the code's window has not started (check the kiosk's clock)"
        }
    }
}
