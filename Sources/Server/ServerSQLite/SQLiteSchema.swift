import ServerDomain
import ServerLedgerSQL
import SharedDomain
import SharedSystem

/// Brings a SQLite database to the ledger's newest schema, or refuses it: a database of
/// another program, or of a newer qrcheckin-server, is never touched.
enum SQLiteSchema {
    /// `PRAGMA application_id` of a ledger ("QRCI"), so `file(1)` and we can tell it apart.
    static let applicationID: Int64 = 0x5152_4349

    private static let recordMigration = SQLDialect.sqlite.render(LedgerSchema.recordMigration)
    private static let editDeclaration = SQLDialect.sqlite.render(LedgerSchema.editSQLiteDeclaration)

    /// Applies the missing migrations in one transaction; returns the version it is at.
    @discardableResult
    static func migrate(_ connection: SQLiteConnection, at now: WallTime) throws(LedgerError) -> Int {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(LedgerError) {
            let version = try migrateInTransaction(connection, at: now)
            try connection.execute("COMMIT")
            return version
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static func migrateInTransaction(_ connection: SQLiteConnection, at now: WallTime) throws(LedgerError) -> Int {
        let application = try connection.integer("PRAGMA application_id") ?? 0
        let tables = try connection.integer(LedgerSchema.countSQLiteTables) ?? 0
        if application != applicationID {
            guard application == 0, tables == 0 else {
                throw LedgerError(.corrupt, "\(connection.path): not a qrcheckin-server ledger (a database of another program); refusing to change it")
            }
            try connection.execute("PRAGMA application_id = \(applicationID)")
        }
        try connection.execute(LedgerSchema.migrationsTable)
        let current = Int(try connection.integer(LedgerSchema.selectVersion) ?? 0)
        guard current <= LedgerSchema.latestVersion else {
            throw LedgerError(.tooNew, "\(connection.path): the ledger's schema is version \(current), newer than this qrcheckin-server knows (\(LedgerSchema.latestVersion)): upgrade qrcheckin-server")
        }
        for migration in LedgerSchema.migrations where migration.version > current {
            for statement in migration.statements(for: .sqlite) {
                try connection.execute(statement)
            }
            let session = SQLiteSession(connection)
            try edit(migration.sqliteDeclarationEdits, connection, session)
            for statement in migration.newKeys(for: .sqlite) {
                try session.run(statement, [.text(CheckInIDCipher.newStoredKey(SecureRandom.bytes))])
            }
            try session.run(recordMigration, [.integer(Int64(migration.version)), .text(migration.name), .integer(now.milliseconds)])
        }
        return LedgerSchema.latestVersion
    }

    /// Rewrites tables' declarations in place, the way SQLite documents for a change that
    /// touches no stored row ("Making Other Kinds Of Table Schema Changes", lang_altertable):
    /// inside the migration's transaction, `writable_schema` on, the text edited, the
    /// `schema_version` one higher (so every connection, this one included, reads the schema
    /// again and prepares its statements anew), `writable_schema` off. A declaration that does
    /// not hold an edit's text is left as it is: the rule is the same either way, only slower to
    /// check. So is every one when SQLite refuses the first edit (a library configured
    /// defensively, `SQLITE_DBCONFIG_DEFENSIVE`, may not change its schema): a ledger is never
    /// left unopenable for speed. The new text is parsed when the next statement runs, in this
    /// transaction, so a failure after an edit rolls the whole migration back.
    private static func edit(_ edits: [DeclarationEdit], _ connection: SQLiteConnection, _ session: SQLiteSession) throws(LedgerError) {
        guard !edits.isEmpty else { return }
        let version = try connection.integer("PRAGMA schema_version") ?? 0
        try connection.execute("PRAGMA writable_schema = ON")
        defer { try? connection.execute("PRAGMA writable_schema = OFF") }
        var edited = 0
        for edit in edits {
            do {
                edited += try session.run(editDeclaration, [.text(edit.table), .text(edit.from), .text(edit.to)])
            } catch where edited == 0 {
                return
            }
        }
        if edited > 0 {
            try connection.execute("PRAGMA schema_version = \(version + 1)")
        }
    }
}
