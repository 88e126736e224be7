import SharedDomain

/// An API token as the ledger keeps it: never the secret its holder sends, only its hash (a
/// stolen table cannot be replayed as tokens, as with the console's sessions), its name (what
/// the audit log calls every call made with it), its scope and the venues it may see. In the
/// database, so every server of one PostgreSQL knows it, and removing it on one ends it on all.
public struct APIToken: Hashable, Sendable {
    /// The name: the audit log's actor for every call (`ConsoleAccount.isValidName`'s rule).
    public let name: String
    /// What it may do.
    public let scope: APIScope
    /// The venues it may see and act at, sorted; empty: every venue.
    public let venues: [VenueID]
    /// The hash of the secret (hex, `APITokenSecret.hash`): the table's lookup key.
    public let secretHash: String
    /// When it was added.
    public let created: WallTime
    /// Who added it (an operator's name).
    public let createdBy: String

    /// A token with these fields (`venues` sorted and without repeats).
    public init(name: String, scope: APIScope, venues: [VenueID], secretHash: String, created: WallTime, createdBy: String) {
        self.name = name
        self.scope = scope
        self.venues = Array(Set(venues)).sorted { $0.rawValue < $1.rawValue }
        self.secretHash = secretHash
        self.created = created
        self.createdBy = createdBy
    }

    /// Whether it may do what `scope` allows.
    public func allows(_ needed: APIScope) -> Bool { scope >= needed }

    /// Whether it may see and act at `venue`.
    public func covers(_ venue: VenueID) -> Bool { venues.isEmpty || venues.contains(venue) }

    /// Whether `name` may name a token: 1-64 letters, digits, `.`, `_`, `-` or `@`, as accounts.
    public static func isValidName(_ name: String) -> Bool { ConsoleAccount.isValidName(name) }
}
