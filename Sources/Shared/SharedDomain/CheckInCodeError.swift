/// Why a venue, period, secret or base URL was refused. Each description is one clear line.
public enum CheckInCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A venue id is empty, too long or uses characters outside `0-9 A-Z - .`.
    case invalidVenue(String, reason: String)
    /// A rotation period is outside 1...3600 seconds.
    case invalidPeriod(Int)
    /// A master secret is shorter than `MasterSecret.minimumLength` or longer than the maximum.
    case invalidSecretLength(Int)
    /// A base URL cannot prefix check-in URLs.
    case invalidBaseURL(String, reason: String)
    /// A venue key is not `VenueSigningKey.length` bytes.
    case invalidVenueKeyLength(Int)

    public var description: String {
        switch self {
        case .invalidVenue(let text, let reason):
            "invalid venue id \(Quoted(text)): \(reason)"
        case .invalidPeriod(let seconds):
            "invalid rotation period \(seconds) s: it must be 1 to 3600 seconds"
        case .invalidSecretLength(let count):
            "a secret must be \(MasterSecret.minimumLength) to \(MasterSecret.maximumLength) bytes, got \(count)"
        case .invalidBaseURL(let text, let reason):
            "invalid base URL \(Quoted(text)): \(reason)"
        case .invalidVenueKeyLength(let count):
            "a venue key must be \(VenueSigningKey.length) bytes, got \(count)"
        }
    }
}
