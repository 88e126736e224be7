import CSQLite
import ServerDomain
import ServerLedgerSQL
import ServerSQLite
import Testing

/// Migration 14's rewritten checks (`DeclarationEdit`): the rows a visitor's scan writes are
/// checked without SQLite building a table each time, the rules are the same, and a ledger
/// made before the step (the outbox's index by check-in still there) is brought to it without
/// losing a row.
struct SQLiteDeclarationTests {
    /// The statements a check-in, its webhook event and an exit run, as SQLite spells them,
    /// with the temporary tables each still opens of its own: a `RETURNING`'s rows, an
    /// `UPDATE` of several rows' list of them. None is a check's.
    static let hotStatements: [(sql: String, ownTables: Int)] = [
        (LedgerSchema.insertCheckIn, 1), (LedgerSchema.endVisit, 1), (LedgerSchema.endOpenVisits, 1),
        (LedgerSchema.enqueueCheckInWebhooks, 0), (LedgerSchema.enqueueCheckOutWebhooks, 0), (LedgerSchema.finishWebhookAttempt, 0),
    ].map { (SQLDialect.sqlite.render($0.0), $0.1) }

    @Test func aCheckInAndItsEventOpenNoTemporaryTableForTheirChecks() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        for (statement, ownTables) in Self.hotStatements {
            let opcodes = try SQLiteLedgerTests.opcodes(path, statement)
            #expect(opcodes.contains("Halt"))
            #expect(opcodes.count { $0 == "OpenEphemeral" } == ownTables, "\(statement)")
        }
    }

    /// A new ledger declares no check as a list of three or more words (a later step that adds
    /// one would make each row's insert build a table again: write it as comparisons).
    @Test func noTableDeclaresACheckWithAList() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        let declared = try SQLiteLedgerTests.query(path, "SELECT group_concat(sql, ' ') FROM sqlite_schema") ?? ""
        let lists = declared.matches(of: /CHECK \(\w+ IN \(([^)]*)\)\)/).map { String($0.output.1) }
        #expect(declared.contains("CHECK (method = 'qr' OR"))
        #expect(lists.filter { $0.split(separator: ",").count >= 3 } == [])
    }

    @Test func theRulesAreTheSame() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        _ = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
        try Self.execute(path, "INSERT INTO checkins (venue, at_ms, method) VALUES ('HALL-1', 1, 'safe-number')")
        try Self.execute(path, "UPDATE checkins SET exit_ms = 2, exit_kind = 'automatic'")
        #expect(throws: LedgerError.self) { try Self.execute(path, "INSERT INTO checkins (venue, at_ms, method) VALUES ('HALL-1', 1, 'QR')") }
        #expect(throws: LedgerError.self) { try Self.execute(path, "UPDATE checkins SET exit_kind = 'walked'") }
        #expect(throws: LedgerError.self) {
            try Self.execute(path, "INSERT INTO webhook_events (endpoint, type, at_ms, state, attempts, next_ms) VALUES ('a', 'test', 1, 'sent', 0, 1)")
        }
        #expect(throws: LedgerError.self) {
            try Self.execute(path, "INSERT INTO console_accounts (name, role, password_hash, disabled, created_ms) VALUES ('kim', 'owner', '', 0, 1)")
        }
        // NULL passes as it did: an open visit has no exit kind.
        try Self.execute(path, "UPDATE checkins SET exit_ms = NULL, exit_kind = NULL")
        #expect(try SQLiteLedgerTests.query(path, "SELECT count(*) FROM checkins WHERE exit_kind IS NULL") == "1")
    }

    /// A ledger as versions before 14 left it (the lists put back, the step unrecorded) is
    /// rewritten when opened, its rows kept and the file sound.
    @Test func aLedgerOfAnEarlierVersionIsRewritten() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkins.db")
        do {
            let ledger = try await SQLiteLedger(path: path, create: true, clock: FixedClock(), pool: TestPool.shared)
            for index in 0..<20 { _ = try await ledger.record(SQLiteLedgerTests.entry("d\(index)", at: 100 + Int64(index)), duplicateSeconds: 60) }
        }
        let edits = LedgerSchema.migrations.first { $0.version == 14 }!.sqliteDeclarationEdits
        #expect(edits.count == 4)
        let version = Int(try SQLiteLedgerTests.query(path, "PRAGMA schema_version") ?? "0")!
        var undo = "BEGIN; PRAGMA writable_schema = ON;"
        for edit in edits {
            undo += " UPDATE sqlite_schema SET sql = replace(sql, '\(edit.to.replacing("'", with: "''"))', '\(edit.from.replacing("'", with: "''"))') WHERE name = '\(edit.table)';"
        }
        undo += " PRAGMA schema_version = \(version + 1); PRAGMA writable_schema = OFF; DELETE FROM schema_migrations WHERE version = 14;"
        undo += " CREATE INDEX webhook_events_checkin ON webhook_events (checkin) WHERE checkin IS NOT NULL; COMMIT;"
        try Self.execute(path, undo)
        // Before the step, a check-in's insert built a table for each list (its method's, its
        // exit kind's) besides its own.
        #expect(try SQLiteLedgerTests.opcodes(path, SQLDialect.sqlite.render(LedgerSchema.insertCheckIn)).count { $0 == "OpenEphemeral" } == 3)

        let ledger = try await SQLiteLedger(path: path, create: false, clock: FixedClock(), pool: TestPool.shared)
        #expect(try await ledger.checkIns(CheckInQuery(), after: nil).count == 20)
        #expect(try SQLiteLedgerTests.query(path, "SELECT max(version) FROM schema_migrations") == "\(LedgerSchema.latestVersion)")
        #expect(try SQLiteLedgerTests.query(path, "PRAGMA integrity_check") == "ok")
        for (statement, ownTables) in Self.hotStatements {
            #expect(try SQLiteLedgerTests.opcodes(path, statement).count { $0 == "OpenEphemeral" } == ownTables, "\(statement)")
        }
        let declared = try SQLiteLedgerTests.query(path, "SELECT group_concat(sql, ' ') FROM sqlite_schema WHERE type = 'table'") ?? ""
        for edit in edits {
            #expect(declared.contains(edit.to) && !declared.contains(edit.from))
        }
        #expect(try SQLiteLedgerTests.query(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'webhook_events_checkin'") == "0")
        _ = try await ledger.record(SQLiteLedgerTests.entry("new", at: 200), duplicateSeconds: 60)
        #expect(try await ledger.checkIns(CheckInQuery(), after: nil).count == 21)
    }

    /// Runs `sql` (several statements) on a connection of its own.
    static func execute(_ path: String, _ sql: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw LedgerError(.cannotOpen, path) }
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw LedgerError(.failed, String(cString: sqlite3_errmsg(handle))) }
    }
}
