import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// The console's accounts and sessions in the shared database: every server of one PostgreSQL
/// sees the same accounts and sessions, so a session begun on one works on all and a sign-out
/// on one ends it everywhere.
extension PostgresLedger: AccountLedger {
    public func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try pool.withConnection { connection throws(LedgerError) in try Self.addAccount(account, connection) }
    }

    /// Inserts `account` unless its name is taken, on `connection`.
    static func addAccount(_ account: ConsoleAccount, _ connection: PostgresConnection) throws(LedgerError) -> Bool {
        try connection.query(LedgerSchema.insertAccount, [
            .text(account.name), .text(account.role.rawValue), .text(account.passwordHash), .int64(account.disabled ? 1 : 0),
            .int64(account.created.milliseconds),
        ]).rowCount == 1
    }

    public func account(named name: String) throws(LedgerError) -> ConsoleAccount? {
        try pool.withConnection { connection throws(LedgerError) in
            let result = try connection.query(LedgerSchema.selectAccount, [.text(name)], repeatable: true)
            return result.rowCount == 1 ? try Self.account(result, 0, connection) : nil
        }
    }

    public func accounts() throws(LedgerError) -> [ConsoleAccount] {
        try pool.withConnection { connection throws(LedgerError) in
            let result = try connection.query(LedgerSchema.selectAccounts, [], repeatable: true)
            var accounts: [ConsoleAccount] = []
            for row in 0..<result.rowCount { accounts.append(try Self.account(result, row, connection)) }
            return accounts
        }
    }

    public func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try Self.changeAccount(named: name, change, connection) }
        }
    }

    /// Applies `change` to account `name`, ending its sessions when the change does, inside the open transaction.
    static func changeAccount(named name: String, _ change: AccountChange, _ connection: PostgresConnection) throws(LedgerError) -> Bool {
        let changed = try connection.query(LedgerSchema.updateAccount, [
            .text(name), .text(change.role?.rawValue), .text(change.passwordHash), .int64(change.disabled.map { $0 ? 1 : 0 }),
        ]).rowCount == 1
        if changed && change.endsSessions { _ = try connection.query(LedgerSchema.deleteAccountSessions, [.text(name)]) }
        return changed
    }

    public func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.transaction { () throws(LedgerError) in try Self.removeAccount(named: name, connection) }
        }
    }

    /// Removes account `name` and its sessions, inside the open transaction.
    static func removeAccount(named name: String, _ connection: PostgresConnection) throws(LedgerError) -> Bool {
        let removed = try connection.query(LedgerSchema.deleteAccount, [.text(name)]).rowCount == 1
        if removed { _ = try connection.query(LedgerSchema.deleteAccountSessions, [.text(name)]) }
        return removed
    }

    public func addSession(_ session: ConsoleSession) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            _ = try connection.query(LedgerSchema.insertSession, [
                .text(session.idHash), .text(session.account), .int64(session.created.milliseconds), .int64(session.lastSeen.milliseconds),
                .text(session.formToken),
            ])
        }
    }

    public func session(idHash: String) throws(LedgerError) -> ConsoleSession? {
        try pool.withConnection { connection throws(LedgerError) in
            let result = try connection.query(LedgerSchema.selectSession, [.text(idHash)], repeatable: true)
            guard result.rowCount == 1 else { return nil }
            guard let hash = result.text(0, 0), let account = result.text(0, 1), let created = try result.int64(0, 2),
                  let seen = try result.int64(0, 3), let token = result.text(0, 4) else {
                throw LedgerError(.corrupt, "\(connection.target): a console session no ledger writes")
            }
            return ConsoleSession(idHash: hash, account: account, created: WallTime(milliseconds: created), lastSeen: WallTime(milliseconds: seen),
                                  formToken: token)
        }
    }

    public func touchSession(idHash: String, at time: WallTime) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            _ = try connection.query(LedgerSchema.touchSession, [.text(idHash), .int64(time.milliseconds)], repeatable: true)
        }
    }

    public func removeSession(idHash: String) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            _ = try connection.query(LedgerSchema.deleteSession, [.text(idHash)], repeatable: true)
        }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) throws(LedgerError) -> Int {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.query(LedgerSchema.purgeSessions, [.int64(idleBefore.milliseconds), .int64(createdBefore.milliseconds)],
                                 repeatable: true).changedRows
        }
    }

    private static func account(_ result: PostgresResult, _ row: Int, _ connection: PostgresConnection) throws(LedgerError) -> ConsoleAccount {
        guard let name = result.text(row, 0), let role = result.text(row, 1).flatMap(ConsoleRole.init(rawValue:)),
              let hash = result.text(row, 2), let disabled = try result.int64(row, 3), let created = try result.int64(row, 4) else {
            throw LedgerError(.corrupt, "\(connection.target): a console account no ledger writes")
        }
        return ConsoleAccount(name: name, role: role, passwordHash: hash, disabled: disabled != 0, created: WallTime(milliseconds: created))
    }
}

extension PostgresLedger: RefusalCounting {
    public func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount] {
        try pool.withConnection { connection throws(LedgerError) in
            let result = try connection.query(LedgerSchema.countRefusals, [.int64(since.milliseconds)], repeatable: true)
            var counts: [RefusalCount] = []
            for row in 0..<result.rowCount {
                guard let reason = result.text(row, 1).flatMap(RefusalReason.init(rawValue:)), let count = try result.int64(row, 2) else { continue }
                counts.append(RefusalCount(venue: result.text(row, 0).flatMap { try? VenueID($0) }, reason: reason, count: Int(count)))
            }
            return counts
        }
    }
}
