/// One signed check-in code: what a kiosk shows for a venue during one window.
public struct CheckInCode: Equatable, Sendable {
    /// The venue it admits to.
    public let venue: VenueID
    /// The window counter, ⌊t / period⌋.
    public let window: Int64
    /// The forced-refresh number within the window; 0 for the regular code.
    public let sequence: Int
    /// The signed token, the URL's last path component.
    public let token: String
    /// `<base URL>/<venue>/<token>`, what the QR code holds.
    public let url: String
    /// The human-typeable code of the window, e.g. `12가34나`.
    public let safeNumber: String
    /// The window's first second (Unix time).
    public let issuedAt: Int64
    /// The window's end (Unix time): the code expires then (a verifier allows its skew on top).
    public let expiresAt: Int64

    /// Creates a code from its parts; `CheckInCodeIssuer` is the way to make a signed one.
    public init(venue: VenueID, window: Int64, sequence: Int, token: String, url: String,
                safeNumber: String, issuedAt: Int64, expiresAt: Int64) {
        self.venue = venue
        self.window = window
        self.sequence = sequence
        self.token = token
        self.url = url
        self.safeNumber = safeNumber
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
