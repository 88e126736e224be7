/// One step of the ledger's schema: applied once, in order, recorded in `schema_migrations`.
/// Released steps are never edited: a change is a new step.
public struct Migration: Sendable {
    /// The schema version this step brings the database to (1, 2, …, without gaps).
    public let version: Int
    /// What the step does, for logs and `schema_migrations.name`.
    public let name: String
    /// The statements, written once for both dialects (`{id}`, `$N`; see `SQLDialect.render`).
    public let statements: [String]
    /// Statements that store a key made for this ledger as the step runs, run after
    /// `statements` with `$1` bound to the new key as hex. The randomness is the engine's (this
    /// target has none), so a key differs from ledger to ledger and never appears in the code.
    public let newKeys: [String]
    /// Tables' declarations SQLite rewrites in place (`DeclarationEdit`), after `statements`;
    /// PostgreSQL has nothing to do for them.
    public let sqliteDeclarationEdits: [DeclarationEdit]

    /// A step to `version`.
    public init(version: Int, name: String, statements: [String], newKeys: [String] = [], sqliteDeclarationEdits: [DeclarationEdit] = []) {
        self.version = version
        self.name = name
        self.statements = statements
        self.newKeys = newKeys
        self.sqliteDeclarationEdits = sqliteDeclarationEdits
    }

    /// The statements as `dialect` spells them.
    public func statements(for dialect: SQLDialect) -> [String] {
        statements.map(dialect.render)
    }

    /// The key-storing statements as `dialect` spells them.
    public func newKeys(for dialect: SQLDialect) -> [String] {
        newKeys.map(dialect.render)
    }
}
