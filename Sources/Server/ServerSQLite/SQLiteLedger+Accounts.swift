import ServerDomain
import ServerLedgerSQL
import SharedDomain

/// The console's accounts and sessions in the ledger's file: written by the one writer, read
/// by the read connections, as the visitor log is.
extension SQLiteLedger: AccountLedger {
    public func addAccount(_ account: ConsoleAccount) throws(LedgerError) -> Bool {
        try writer.perform { connection throws(LedgerError) in try Self.addAccount(account, connection) }
    }

    /// Inserts `account` unless its name is taken, inside the open transaction.
    static func addAccount(_ account: ConsoleAccount, _ connection: SQLiteConnection) throws(LedgerError) -> Bool {
        let insert = try connection.statement(Self.sql(LedgerSchema.insertAccount))
        defer { insert.reset() }
        try insert.bind(1, account.name)
        try insert.bind(2, account.role.rawValue)
        try insert.bind(3, account.passwordHash)
        try insert.bind(4, account.disabled ? 1 : 0)
        try insert.bind(5, account.created.milliseconds)
        return try insert.step()
    }

    public func account(named name: String) throws(LedgerError) -> ConsoleAccount? {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.sql(LedgerSchema.selectAccount))
            defer { select.reset() }
            try select.bind(1, name)
            return try select.step() ? try Self.account(select, connection) : nil
        }
    }

    public func accounts() throws(LedgerError) -> [ConsoleAccount] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.sql(LedgerSchema.selectAccounts))
            defer { select.reset() }
            var accounts: [ConsoleAccount] = []
            while try select.step() { accounts.append(try Self.account(select, connection)) }
            return accounts
        }
    }

    public func changeAccount(named name: String, _ change: AccountChange) throws(LedgerError) -> Bool {
        try writer.perform { connection throws(LedgerError) in try Self.changeAccount(named: name, change, connection) }
    }

    /// Applies `change` to account `name`, ending its sessions when the change does, inside the open transaction.
    static func changeAccount(named name: String, _ change: AccountChange, _ connection: SQLiteConnection) throws(LedgerError) -> Bool {
        let update = try connection.statement(Self.sql(LedgerSchema.updateAccount))
        try update.bind(1, name)
        try update.bind(2, change.role?.rawValue)
        try update.bind(3, change.passwordHash)
        try update.bind(4, change.disabled.map { $0 ? 1 : 0 })
        let changed = try update.step()
        update.reset()
        if changed && change.endsSessions { try Self.endSessions(of: name, connection) }
        return changed
    }

    public func removeAccount(named name: String) throws(LedgerError) -> Bool {
        try writer.perform { connection throws(LedgerError) in try Self.removeAccount(named: name, connection) }
    }

    /// Removes account `name` and its sessions, inside the open transaction.
    static func removeAccount(named name: String, _ connection: SQLiteConnection) throws(LedgerError) -> Bool {
        let delete = try connection.statement(Self.sql(LedgerSchema.deleteAccount))
        try delete.bind(1, name)
        let removed = try delete.step()
        delete.reset()
        if removed { try Self.endSessions(of: name, connection) }
        return removed
    }

    private static func endSessions(of name: String, _ connection: SQLiteConnection) throws(LedgerError) {
        let delete = try connection.statement(sql(LedgerSchema.deleteAccountSessions))
        try delete.bind(1, name)
        try delete.run()
    }

    public func addSession(_ session: ConsoleSession) throws(LedgerError) {
        try writer.perform { connection throws(LedgerError) in
            let insert = try connection.statement(Self.sql(LedgerSchema.insertSession))
            try insert.bind(1, session.idHash)
            try insert.bind(2, session.account)
            try insert.bind(3, session.created.milliseconds)
            try insert.bind(4, session.lastSeen.milliseconds)
            try insert.bind(5, session.formToken)
            try insert.run()
        }
    }

    public func session(idHash: String) throws(LedgerError) -> ConsoleSession? {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(Self.sql(LedgerSchema.selectSession))
            defer { select.reset() }
            try select.bind(1, idHash)
            guard try select.step() else { return nil }
            guard let hash = select.text(0), let account = select.text(1), let created = select.int64(2), let seen = select.int64(3),
                  let token = select.text(4) else { throw LedgerError(.corrupt, "\(connection.path): a console session no ledger writes") }
            return ConsoleSession(idHash: hash, account: account, created: WallTime(milliseconds: created), lastSeen: WallTime(milliseconds: seen),
                                  formToken: token)
        }
    }

    public func touchSession(idHash: String, at time: WallTime) throws(LedgerError) {
        try writer.perform { connection throws(LedgerError) in
            let update = try connection.statement(Self.sql(LedgerSchema.touchSession))
            try update.bind(1, idHash)
            try update.bind(2, time.milliseconds)
            try update.run()
        }
    }

    public func removeSession(idHash: String) throws(LedgerError) {
        try writer.perform { connection throws(LedgerError) in
            let delete = try connection.statement(Self.sql(LedgerSchema.deleteSession))
            try delete.bind(1, idHash)
            try delete.run()
        }
    }

    public func purgeSessions(idleBefore: WallTime, createdBefore: WallTime) throws(LedgerError) -> Int {
        try writer.perform { connection throws(LedgerError) in
            let delete = try connection.statement(Self.sql(LedgerSchema.purgeSessions))
            try delete.bind(1, idleBefore.milliseconds)
            try delete.bind(2, createdBefore.milliseconds)
            try delete.run()
            return connection.changes
        }
    }

    private static func account(_ row: SQLiteStatement, _ connection: SQLiteConnection) throws(LedgerError) -> ConsoleAccount {
        guard let name = row.text(0), let role = row.text(1).flatMap(ConsoleRole.init(rawValue:)), let hash = row.text(2),
              let disabled = row.int64(3), let created = row.int64(4) else {
            throw LedgerError(.corrupt, "\(connection.path): a console account no ledger writes")
        }
        return ConsoleAccount(name: name, role: role, passwordHash: hash, disabled: disabled != 0, created: WallTime(milliseconds: created))
    }

    private static func sql(_ text: String) -> String { SQLDialect.sqlite.render(text) }
}

extension SQLiteLedger: RefusalCounting {
    public func refusalCounts(since: WallTime) throws(LedgerError) -> [RefusalCount] {
        try readers.read { connection throws(LedgerError) in
            let select = try connection.statement(SQLDialect.sqlite.render(LedgerSchema.countRefusals))
            defer { select.reset() }
            try select.bind(1, since.milliseconds)
            var counts: [RefusalCount] = []
            while try select.step() {
                guard let reason = select.text(1).flatMap(RefusalReason.init(rawValue:)), let count = select.int64(2) else { continue }
                counts.append(RefusalCount(venue: select.text(0).flatMap { try? VenueID($0) }, reason: reason, count: Int(count)))
            }
            return counts
        }
    }
}
