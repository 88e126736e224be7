/// A change to how a table is declared that changes no stored byte: a `CHECK` spelled another
/// way. SQLite keeps each table's `CREATE TABLE` text and cannot alter a constraint; its
/// documented way for such a change is to edit that text in `sqlite_schema` in the migration's
/// transaction (`PRAGMA writable_schema`, then `schema_version` one higher), which
/// `SQLiteSchema` does. PostgreSQL needs none of these (its constraints are objects of their
/// own, and their spelling costs it nothing), so it skips them.
public struct DeclarationEdit: Sendable, Equatable {
    /// The table whose `CREATE TABLE` text changes.
    public let table: String
    /// The text as the earlier migrations wrote it.
    public let from: String
    /// What it becomes: the same rule.
    public let to: String

    public init(table: String, from: String, to: String) {
        self.table = table
        self.from = from
        self.to = to
    }

    /// `CHECK (column IN ('a', 'b', 'c'))` as `CHECK (column = 'a' OR column = 'b' OR …)`: the
    /// same rule (NULL passes both), without the list. SQLite codes a list of three or more
    /// constants as a temporary b-tree, built again each time the statement runs: for a row
    /// inserted alone (a check-in, an outbox event), opening it cost more than the rest of the
    /// constraint checks together (~30,000 instructions; issue 40's bench).
    public static func checkWithoutList(table: String, column: String, values: [String]) -> DeclarationEdit {
        let list = values.map { "'\($0)'" }.joined(separator: ", ")
        let comparisons = values.map { "\(column) = '\($0)'" }.joined(separator: " OR ")
        return DeclarationEdit(table: table, from: "CHECK (\(column) IN (\(list)))", to: "CHECK (\(comparisons))")
    }
}
