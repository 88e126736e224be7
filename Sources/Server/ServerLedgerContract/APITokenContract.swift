import ServerDomain
import SharedDomain

/// The rules every ledger keeps of the API's tokens (`APITokens` for the reads, the
/// transaction's `addToken`/`removeToken` for the changes), as named cases each ledger's tests
/// run against a fresh, empty ledger, as `AccountContract`'s.
public enum APITokenContract {
    /// A ledger with tokens: the reads and the transactions that change them.
    public typealias Ledger = any LedgerTransactions & APITokens

    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        let check: @Sendable (Ledger) async throws(ContractFailure) -> Void

        /// Runs the rule on `ledger`, which must hold no tokens.
        public func run(on ledger: Ledger) async throws(ContractFailure) {
            try await check(ledger)
        }
    }

    static let hall = try! VenueID("HALL-1")
    static let gate = try! VenueID("GATE-2")

    static func token(_ name: String, _ scope: APIScope = .read, venues: [VenueID] = [], hash: String? = nil) -> APIToken {
        APIToken(name: name, scope: scope, venues: venues, secretHash: hash ?? "hash-of-\(name)", created: LedgerContract.at(60), createdBy: "root")
    }

    static func add(_ ledger: Ledger, _ token: APIToken, line: Int = #line) async throws(ContractFailure) -> Bool {
        try await call("addToken", line: line) { () async throws(LedgerError) in try await ledger.transaction { tx throws(LedgerError) in try tx.addToken(token) } }
    }

    static func remove(_ ledger: Ledger, _ name: String, line: Int = #line) async throws(ContractFailure) -> Bool {
        try await call("removeToken", line: line) { () async throws(LedgerError) in try await ledger.transaction { tx throws(LedgerError) in try tx.removeToken(named: name) } }
    }

    static func find(_ ledger: Ledger, _ hash: String, line: Int = #line) async throws(ContractFailure) -> APIToken? {
        try await call("token", line: line) { () async throws(LedgerError) in try await ledger.token(secretHash: hash) }
    }

    static func all(_ ledger: Ledger, line: Int = #line) async throws(ContractFailure) -> [APIToken] {
        try await call("tokens", line: line) { () async throws(LedgerError) in try await ledger.tokens() }
    }

    /// Every rule.
    public static let cases: [Case] = [
        Case(description: "a token comes back whole by its secret's hash; an unknown hash finds nothing") { ledger throws(ContractFailure) in
            let door = token("door-counter", .checkin, venues: [hall, gate])
            try expect(try await add(ledger, door), "a new token is added")
            try expect(try await find(ledger, door.secretHash) == door, "the token comes back whole, its venues sorted")
            try expect(try await find(ledger, door.secretHash)?.venues == [gate, hall], "venues sorted by id")
            try expect(try await find(ledger, "hash-of-nobody") == nil, "an unknown hash finds nothing")
            let crm = token("crm")
            try expect(try await add(ledger, crm), "a second token is added")
            try expect(try await find(ledger, crm.secretHash)?.venues == [], "no venues: every venue")
        },
        Case(description: "a second token of one name is refused, and nothing of it is kept") { ledger throws(ContractFailure) in
            try expect(try await add(ledger, token("crm")), "a new token is added")
            try expect(!(try await add(ledger, token("crm", .checkin, hash: "other"))), "a token of a taken name is refused")
            try expect(try await find(ledger, "other") == nil, "the refused token's hash finds nothing")
            try expect(try await find(ledger, "hash-of-crm")?.scope == .read, "the first token is unchanged")
        },
        Case(description: "tokens are listed by name; a removed token is gone at once, and removing it again finds none") { ledger throws(ContractFailure) in
            for name in ["zeta", "alpha", "mid"] { _ = try await add(ledger, token(name)) }
            try expect(try await all(ledger).map(\.name) == ["alpha", "mid", "zeta"], "every token, by name")
            try expect(try await remove(ledger, "mid"), "an existing token is removed")
            try expect(try await find(ledger, "hash-of-mid") == nil, "a removed token's hash finds nothing")
            try expect(try await all(ledger).map(\.name) == ["alpha", "zeta"], "the others stay")
            try expect(!(try await remove(ledger, "mid")), "removing it again finds none")
            let listed = try await call("tokens in a transaction") { () async throws(LedgerError) in try await ledger.transaction { tx throws(LedgerError) in try tx.tokens() } }
            try expect(listed.map(\.name) == ["alpha", "zeta"], "a transaction lists the same")
        },
        Case(description: "a token added in a transaction that fails is not kept") { ledger throws(ContractFailure) in
            var failed: LedgerError?
            do throws(LedgerError) {
                try await ledger.transaction { tx throws(LedgerError) in
                    _ = try tx.addToken(token("rolled-back"))
                    throw LedgerError(.unavailable, "the work after it failed")
                }
            } catch {
                failed = error
            }
            try expect(failed?.kind == .unavailable, "the body's error comes out: \(String(describing: failed?.kind))")
            try expect(try await find(ledger, "hash-of-rolled-back") == nil, "the token was rolled back")
            try expect(try await all(ledger).isEmpty, "no token is kept")
        },
    ]
}
