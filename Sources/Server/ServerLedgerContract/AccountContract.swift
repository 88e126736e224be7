import ServerDomain
import SharedDomain

/// The rules every `AccountLedger` keeps (the console's accounts and sessions), as named cases
/// each ledger's tests run against a fresh, empty ledger, as `LedgerContract`'s.
public enum AccountContract {
    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        let check: @Sendable (any AccountLedger) async throws(ContractFailure) -> Void

        /// Runs the rule on `ledger`, which must hold no accounts.
        public func run(on ledger: any AccountLedger) async throws(ContractFailure) {
            try await check(ledger)
        }
    }

    static func at(_ seconds: Int64) -> WallTime { LedgerContract.at(seconds) }

    static func account(_ name: String, _ role: ConsoleRole = .steward, hash: String = "$argon2id$v=19$m=65536,t=2,p=1$x$y") -> ConsoleAccount {
        ConsoleAccount(name: name, role: role, passwordHash: hash, created: at(0))
    }

    static func session(_ hash: String, of account: String, created: Int64 = 0, seen: Int64 = 0) -> ConsoleSession {
        ConsoleSession(idHash: hash, account: account, created: at(created), lastSeen: at(seen), formToken: "token-\(hash)")
    }

    /// Every rule.
    public static let cases: [Case] = [
        Case(description: "accounts come back whole, by name; a second account of one name is refused") { ledger async throws(ContractFailure) in
            let admin = account("admin", .admin)
            try expect(try await call("addAccount") { () async throws(LedgerError) in try await ledger.addAccount(admin) }, "a new account is added")
            try expect(try await call("addAccount") { () async throws(LedgerError) in try await ledger.addAccount(account("steward-1")) }, "a second account is added")
            let again = try await call("addAccount") { () async throws(LedgerError) in try await ledger.addAccount(account("admin", .steward, hash: "other")) }
            try expect(!again, "an account of an existing name is refused")
            try expect(try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "admin") } == admin, "the account comes back whole, unchanged")
            try expect(try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "nobody") } == nil, "an unknown name finds nothing")
            try expect(try await call("accounts") { () async throws(LedgerError) in try await ledger.accounts() }.map(\.name) == ["admin", "steward-1"], "every account, by name")
        },
        Case(description: "a new password, a new role or disabling ends the account's sessions; other accounts' stay") { ledger async throws(ContractFailure) in
            for name in ["alice", "bob"] {
                _ = try await call("addAccount") { () async throws(LedgerError) in try await ledger.addAccount(account(name)) }
            }
            for (hash, name) in [("a1", "alice"), ("a2", "alice"), ("b1", "bob")] {
                try await call("addSession") { () async throws(LedgerError) in try await ledger.addSession(session(hash, of: name)) }
            }
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "a1") } == session("a1", of: "alice"), "a session comes back whole")
            let changed = try await call("changeAccount") { () async throws(LedgerError) in try await ledger.changeAccount(named: "alice", AccountChange(disabled: true)) }
            try expect(changed, "an existing account is changed")
            try expect(try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "alice") }?.disabled == true, "the account is disabled")
            let a1 = try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "a1") }
            let a2 = try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "a2") }
            try expect(a1 == nil && a2 == nil, "disabling ends its sessions")
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "b1") } != nil, "another account's session stays")
            _ = try await call("changeAccount") { () async throws(LedgerError) in try await ledger.changeAccount(named: "bob", AccountChange(role: .admin, passwordHash: "new")) }
            let bob = try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "bob") }
            try expect(bob?.role == .admin && bob?.passwordHash == "new" && bob?.disabled == false, "role and hash change, the rest stays: \(String(describing: bob))")
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "b1") } == nil, "a new password ends the sessions")
            let unknown = try await call("changeAccount") { () async throws(LedgerError) in try await ledger.changeAccount(named: "carol", AccountChange(disabled: true)) }
            try expect(!unknown, "changing an unknown account changes nothing")
        },
        Case(description: "removing an account ends its sessions; sessions are touched, removed and purged by age") { ledger async throws(ContractFailure) in
            _ = try await call("addAccount") { () async throws(LedgerError) in try await ledger.addAccount(account("alice")) }
            try await call("addSession") { () async throws(LedgerError) in try await ledger.addSession(session("old", of: "alice", created: 0, seen: 0)) }
            try await call("addSession") { () async throws(LedgerError) in try await ledger.addSession(session("idle", of: "alice", created: 100, seen: 100)) }
            try await call("addSession") { () async throws(LedgerError) in try await ledger.addSession(session("fresh", of: "alice", created: 100, seen: 100)) }
            try await call("touchSession") { () async throws(LedgerError) in try await ledger.touchSession(idHash: "fresh", at: at(500)) }
            try await call("touchSession") { () async throws(LedgerError) in try await ledger.touchSession(idHash: "old", at: at(500)) }
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "fresh") }?.lastSeen == at(500), "touching moves the last use")
            let purged = try await call("purgeSessions") { () async throws(LedgerError) in try await ledger.purgeSessions(idleBefore: at(200), createdBefore: at(50)) }
            try expect(purged == 2, "the idle one and the one begun too long ago are purged, got \(purged)")
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "fresh") } != nil, "the fresh one stays")
            try await call("removeSession") { () async throws(LedgerError) in try await ledger.removeSession(idHash: "fresh") }
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "fresh") } == nil, "a removed session is gone")
            try await call("addSession") { () async throws(LedgerError) in try await ledger.addSession(session("again", of: "alice")) }
            try expect(try await call("removeAccount") { () async throws(LedgerError) in try await ledger.removeAccount(named: "alice") }, "an account is removed")
            try expect(try await call("session") { () async throws(LedgerError) in try await ledger.session(idHash: "again") } == nil, "its sessions end with it")
            try expect(try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "alice") } == nil, "it is gone")
            let again = try await call("removeAccount") { () async throws(LedgerError) in try await ledger.removeAccount(named: "alice") }
            try expect(!again, "removing it again finds nothing")
        },
    ]
}
