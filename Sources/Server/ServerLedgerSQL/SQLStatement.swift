/// One statement of the ledger, written once (`$N` placeholders, `{…}` words; see
/// `SQLDialect.render`) and rendered for both engines when it is made: a check-in's statements
/// are looked up by their text in each connection's cache, never rendered per call.
public struct SQLStatement: Hashable, Sendable, CustomStringConvertible {
    /// The text SQLite runs (`?N`).
    public let sqlite: String
    /// The text PostgreSQL runs (`$N`).
    public let postgresql: String

    /// `text` rendered for both dialects.
    public init(_ text: String) {
        sqlite = SQLDialect.sqlite.render(text)
        postgresql = SQLDialect.postgresql.render(text)
    }

    /// The text `dialect` runs.
    public func text(for dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sqlite
        case .postgresql: postgresql
        }
    }

    public var description: String { postgresql }
}
