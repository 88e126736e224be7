import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// The console's accounts and sessions in the shared database: every server of one PostgreSQL
/// sees the same accounts and sessions, so a session begun on one works on all and a sign-out
/// on one ends it everywhere.
extension PostgresLedger: AccountLedger {
    public func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try alone(repeatable: false) { session throws(LedgerError) in try sql.addAccount(account, on: session) }
    }

    public func account(named name: String) throws(LedgerError) -> ConsoleAccount? {
        try read { session throws(LedgerError) in try sql.account(named: name, on: session) }
    }

    public func accounts() throws(LedgerError) -> [ConsoleAccount] {
        try read { session throws(LedgerError) in try sql.accounts(on: session) }
    }

    public func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try write { session throws(LedgerError) in try sql.changeAccount(named: name, change, on: session) }
    }

    public func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try write { session throws(LedgerError) in try sql.removeAccount(named: name, on: session) }
    }

    public func addSession(_ console: ConsoleSession) throws(LedgerError) {
        try alone(repeatable: false) { session throws(LedgerError) in try sql.addSession(console, on: session) }
    }

    public func session(idHash: String) throws(LedgerError) -> ConsoleSession? {
        try read { session throws(LedgerError) in try sql.session(idHash: idHash, on: session) }
    }

    // Touching, ending and purging sessions do nothing twice: sent again after a lost connection.

    public func touchSession(idHash: String, at time: WallTime) throws(LedgerError) {
        try alone(repeatable: true) { session throws(LedgerError) in try sql.touchSession(idHash: idHash, at: time, on: session) }
    }

    public func removeSession(idHash: String) throws(LedgerError) {
        try alone(repeatable: true) { session throws(LedgerError) in try sql.removeSession(idHash: idHash, on: session) }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) throws(LedgerError) -> Int {
        try alone(repeatable: true) { session throws(LedgerError) in
            try sql.purgeSessions(idleBefore: idleBefore, createdBefore: createdBefore, on: session)
        }
    }
}

extension PostgresLedger: RefusalCounting {
    public func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount] {
        try read { session throws(LedgerError) in try sql.refusalCounts(since: since, on: session) }
    }
}

extension PostgresLedger: VisitFlowLog {
    public func visitFlow(_ query: VisitFlowQuery) async throws(LedgerError) -> [VisitFlow] {
        try read { session throws(LedgerError) in try sql.visitFlow(query, on: session) }
    }
}
