/// One value bound to a statement's parameter: typed even when NULL (PostgreSQL prepares a
/// statement with its parameters' types). Bound, never spliced into the text.
public enum SQLValue: Hashable, Sendable {
    /// A BIGINT (SQLite's INTEGER); nil is NULL.
    case integer(Int64?)
    /// A TEXT, as UTF-8; nil is NULL.
    case text(String?)
}
