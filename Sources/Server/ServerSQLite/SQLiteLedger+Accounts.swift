import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// The console's accounts and sessions in the ledger's file: written by the one writer, read
/// by the read connections, as the visitor log is.
extension SQLiteLedger: AccountLedger {
    public func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try write { sql, session throws(LedgerError) in try sql.addAccount(account, on: session) }
    }

    public func account(named name: String) throws(LedgerError) -> ConsoleAccount? {
        try read { session throws(LedgerError) in try sql.account(named: name, on: session) }
    }

    public func accounts() throws(LedgerError) -> [ConsoleAccount] {
        try read { session throws(LedgerError) in try sql.accounts(on: session) }
    }

    public func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try write { sql, session throws(LedgerError) in try sql.changeAccount(named: name, change, on: session) }
    }

    public func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try write { sql, session throws(LedgerError) in try sql.removeAccount(named: name, on: session) }
    }

    public func addSession(_ session: ConsoleSession) throws(LedgerError) {
        try write { sql, on throws(LedgerError) in try sql.addSession(session, on: on) }
    }

    public func session(idHash: String) throws(LedgerError) -> ConsoleSession? {
        try read { session throws(LedgerError) in try sql.session(idHash: idHash, on: session) }
    }

    public func touchSession(idHash: String, at time: WallTime) throws(LedgerError) {
        try write { sql, session throws(LedgerError) in try sql.touchSession(idHash: idHash, at: time, on: session) }
    }

    public func removeSession(idHash: String) throws(LedgerError) {
        try write { sql, session throws(LedgerError) in try sql.removeSession(idHash: idHash, on: session) }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) throws(LedgerError) -> Int {
        try write { sql, session throws(LedgerError) in try sql.purgeSessions(idleBefore: idleBefore, createdBefore: createdBefore, on: session) }
    }

    /// Runs `body` in the writer's transaction (batched) and returns its value once committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLLedger, SQLiteSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try writer.perform { [sql] connection throws(LedgerError) in try body(sql, SQLiteSession(connection)) }
    }
}

extension SQLiteLedger: RefusalCounting {
    public func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount] {
        try read { session throws(LedgerError) in try sql.refusalCounts(since: since, on: session) }
    }
}
