import ServerDomain
import ServerLedgerSQL
import SharedDomain
import SharedSystem

/// Brings a PostgreSQL schema to the ledger's newest version, or refuses it. Several servers
/// may start at once: each migrates inside one transaction that first takes a transaction-level
/// advisory lock, so one applies the steps and the others, waiting on the lock, find them
/// applied. PostgreSQL's DDL is transactional: a step that fails leaves nothing behind.
enum PostgresSchema {
    /// The advisory lock of migrations ("QRCI" and 1).
    static let migrationLock: Int64 = 0x5152_4349_0000_0001
    /// The advisory lock of copies of another ledger's history ("QRCI" and 2).
    static let copyLock: Int64 = 0x5152_4349_0000_0002
    /// The comment on `schema_migrations` that marks it as ours (other frameworks keep a table of
    /// that name too; theirs is never touched).
    static let marker = "qrcheckin-server ledger"
    /// The ledger's tables; any of them without our marked `schema_migrations` is not a ledger.
    static let tables = ["schema_migrations", "checkins", "presence", "refusals"]

    /// Checks the schema and, with `apply`, applies the missing steps; returns the versions
    /// before and after. Without `apply`, a schema behind this program is an error.
    static func migrate(_ connection: PostgresConnection, at now: WallTime, apply: Bool) throws(LedgerError) -> (from: Int, to: Int) {
        try connection.transaction { () throws(LedgerError) in
            _ = try connection.query(LedgerSchema.lockLedger, [.int64(migrationLock)])
            let encoding = try connection.query(LedgerSchema.selectEncodingAndSchema)
            guard encoding.text(0, 0) == "UTF8" else {
                throw LedgerError(.failed, "\(connection.target) stores text as \(encoding.text(0, 0) ?? "?"), not UTF8: create the database with ENCODING 'UTF8'")
            }
            guard let schema = encoding.text(0, 1) else {
                throw LedgerError(.failed, "\(connection.target): no schema to keep the ledger in (search_path names none that exists)")
            }
            let current = try version(connection, schema: schema, apply: apply)
            guard current <= LedgerSchema.latestVersion else {
                throw LedgerError(.tooNew, "\(connection.target): the ledger's schema is version \(current), newer than this qrcheckin-server knows (\(LedgerSchema.latestVersion)): upgrade qrcheckin-server")
            }
            guard apply || current == LedgerSchema.latestVersion else {
                throw LedgerError(.failed, "\(connection.target): the ledger's schema is version \(current), this qrcheckin-server needs \(LedgerSchema.latestVersion): run qrcheckin-server migrate")
            }
            for migration in LedgerSchema.migrations where migration.version > current {
                for statement in migration.statements(for: .postgresql) {
                    try connection.execute(statement)
                }
                for statement in migration.newKeys(for: .postgresql) {
                    _ = try connection.query(statement, [.text(CheckInIDCipher.newStoredKey(SecureRandom.bytes))])
                }
                _ = try connection.query(LedgerSchema.recordMigration,
                                         [.int64(Int64(migration.version)), .text(migration.name), .int64(now.milliseconds)])
            }
            return (current, LedgerSchema.latestVersion)
        }
    }

    /// The version the schema is at (0: none yet, `schema_migrations` created when applying).
    private static func version(_ connection: PostgresConnection, schema: String, apply: Bool) throws(LedgerError) -> Int {
        let found = try connection.query(LedgerSchema.selectLedgerTables, [.text(schema)])
        var comments: [String: String?] = [:]
        for row in 0..<found.rowCount { comments[found.text(row, 0) ?? ""] = found.text(row, 1) }
        let notOurs = "\(connection.target): schema \(schema) is not a qrcheckin-server ledger (it has tables of another program); refusing to change it"
        guard let comment = comments["schema_migrations"] else {
            guard comments.isEmpty else { throw LedgerError(.corrupt, notOurs) }
            if apply {
                try connection.execute(LedgerSchema.migrationsTable)
                try connection.execute(LedgerSchema.markMigrationsTable(marker))
            }
            return 0
        }
        guard comment == marker else { throw LedgerError(.corrupt, notOurs) }
        let version = try connection.query(LedgerSchema.selectVersion)
        return Int(try version.int64(0, 0) ?? 0)
    }
}
