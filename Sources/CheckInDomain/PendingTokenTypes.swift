// Placeholder shapes of the token types (issue 3, branch `tokens`), so the daemon can be built
// beside them. Deleted when that branch merges.
public struct VenueID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ text: String) { rawValue = text }
    public var description: String { rawValue }
}

public struct RotationPeriod: Sendable, Equatable {
    public let seconds: Int
    public init(seconds: Int) { self.seconds = seconds }
    public static let standard = RotationPeriod(seconds: 15)
    public func window(at unixTime: Int64) -> Int64 {
        let (q, r) = unixTime.quotientAndRemainder(dividingBy: Int64(seconds))
        return r < 0 ? q - 1 : q
    }
    public func start(ofWindow window: Int64) -> Int64 { window * Int64(seconds) }
    public func end(ofWindow window: Int64) -> Int64 { (window + 1) * Int64(seconds) }
}

public struct CheckInCode: Equatable, Sendable {
    public var venue: VenueID
    public var window: Int64
    public var sequence: Int
    public var token: String
    public var url: String
    public var safeNumber: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    public init(venue: VenueID, window: Int64, sequence: Int, token: String, url: String, safeNumber: String, issuedAt: Int64, expiresAt: Int64) {
        self.venue = venue; self.window = window; self.sequence = sequence; self.token = token
        self.url = url; self.safeNumber = safeNumber; self.issuedAt = issuedAt; self.expiresAt = expiresAt
    }
}
