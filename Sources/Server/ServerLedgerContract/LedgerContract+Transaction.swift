import ServerDomain
import SharedDomain

extension LedgerContract {
    /// Transactions (`LedgerTransactions.transaction`): how an operator action and its audit entry
    /// are written as one, committed together or not at all.
    static let transactionCases: [Case] = [
        Case(description: "a second factor: enabled with its recovery codes, a step taken once and only forward, each code used once, disabled whole") { ledger async throws(ContractFailure) in
            @Sendable func change<T: Sendable>(_ body: @escaping @Sendable (any LedgerTransaction) throws(LedgerError) -> T) async throws(ContractFailure) -> T {
                try await call("transaction") { () async throws(LedgerError) in try await ledger.transaction(body) }
            }
            _ = try await call("addAccount") { () async throws(LedgerError) in
                try await ledger.addAccount(ConsoleAccount(name: "mina", role: .admin, passwordHash: "h", created: at(0)))
            }
            let none = try await change { transaction throws(LedgerError) in
                try transaction.enableSecondFactor(account: "nobody", sealedSecret: "01ab", recoveryCodes: ["c1"], lastStep: nil)
            }
            try expect(!none, "no such account: nothing enabled")
            let enabled = try await change { transaction throws(LedgerError) in
                try transaction.enableSecondFactor(account: "mina", sealedSecret: "01ab", recoveryCodes: ["c1", "c2", "c3"], lastStep: nil)
            }
            try expect(enabled, "a password account gets a second factor")
            let account = try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "mina") }
            try expect(account?.secondFactor == SecondFactorState(sealedSecret: "01ab", lastStep: nil, recoveryCodesLeft: 3),
                       "it comes back with its secret, no step yet and three codes: \(String(describing: account?.secondFactor))")
            let steps = try await change { transaction throws(LedgerError) -> [Bool] in
                [try transaction.acceptSecondFactorStep(account: "mina", step: 100, resealed: nil),
                 try transaction.acceptSecondFactorStep(account: "mina", step: 100, resealed: nil),
                 try transaction.acceptSecondFactorStep(account: "mina", step: 99, resealed: nil),
                 try transaction.acceptSecondFactorStep(account: "mina", step: 101, resealed: "02cd"),
                 try transaction.acceptSecondFactorStep(account: "nobody", step: 500, resealed: nil)]
            }
            try expect(steps == [true, false, false, true, false], "a step is taken once, only forward, only by an account with a factor: \(steps)")
            let codes = try await change { transaction throws(LedgerError) -> [String] in try transaction.recoveryCodes(account: "mina") }
            try expect(codes == ["c1", "c2", "c3"], "the codes' hashes, in order: \(codes)")
            let used = try await change { transaction throws(LedgerError) -> [Bool] in
                [try transaction.useRecoveryCode(account: "mina", hash: "c2"), try transaction.useRecoveryCode(account: "mina", hash: "c2")]
            }
            try expect(used == [true, false], "a recovery code is used once: \(used)")
            let after = try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "mina") }
            try expect(after?.secondFactor == SecondFactorState(sealedSecret: "02cd", lastStep: 101, recoveryCodesLeft: 2),
                       "the step, the secret sealed again and the codes left: \(String(describing: after?.secondFactor))")
            let disabled = try await change { transaction throws(LedgerError) -> [Bool] in
                [try transaction.disableSecondFactor(account: "mina"), try transaction.disableSecondFactor(account: "mina")]
            }
            try expect(disabled == [true, false], "disabled once: \(disabled)")
            let plain = try await call("account") { () async throws(LedgerError) in try await ledger.account(named: "mina") }
            let left = try await change { transaction throws(LedgerError) -> [String] in try transaction.recoveryCodes(account: "mina") }
            try expect(plain?.secondFactor == nil && left.isEmpty && plain?.passwordHash == "h", "no factor, no codes, the password stays")
        },
        Case(description: "a transaction's writes and its audit entry are committed together") { ledger async throws(ContractFailure) in
            let visit = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 0), duplicateSeconds: 60) }.checkIn
            let (erased, entry) = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in
                    let erased = try transaction.erase(.device(phone))
                    let entry = try transaction.appendAudit(AuditEntry(time: at(10), actor: "root", action: .erase, subject: "device", rows: erased))
                    return (erased, entry)
                }
            }
            try expect(erased == 1 && entry.id != nil, "the erasure counts its row and the entry gets an id: \(erased), \(entry)")
            try expect(try await all(ledger).isEmpty, "the visit \(visit.id) is gone once the transaction returned")
            try expect(try await audit(ledger, AuditQuery()) == [entry], "the entry is in the log")
        },
        Case(description: "a transaction whose body throws changes nothing, and its error comes back") { ledger async throws(ContractFailure) in
            let kept = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 0), duplicateSeconds: 60) }.checkIn
            let open = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(other, at: 1), duplicateSeconds: 60) }.checkIn
            let earlier = try await append(ledger, AuditEntry(time: at(-10), actor: "root", action: .export))
            let accounts: any AccountLedger = ledger
            var thrown: LedgerError?
            do throws(LedgerError) {
                _ = try await ledger.transaction { transaction throws(LedgerError) -> Int in
                    _ = try transaction.erase(.device(phone))
                    _ = try transaction.checkOut(CheckOutRequest(.checkIn(open.id), at: at(5), kind: .staff))
                    _ = try transaction.record(scan(nil, cafe, at: 6, method: .staff, operatorName: "root"), rules: AdmissionRules(duplicateSeconds: 0))
                    _ = try transaction.addAccount(ConsoleAccount(name: "mallory", role: .admin, passwordHash: "x", created: at(0)))
                    _ = try transaction.purgeAudit(before: at(1000))
                    _ = try transaction.appendAudit(AuditEntry(time: at(7), actor: "root", action: .erase))
                    throw LedgerError(.full, "the audit entry did not fit")
                }
            } catch {
                thrown = error
            }
            try expect(thrown == LedgerError(.full, "the audit entry did not fit"), "the body's error comes back: \(String(describing: thrown))")
            try expect(try await all(ledger) == [kept, open], "no check-in erased, ended or recorded")
            try expect(try await call("find") { () async throws(LedgerError) in try await ledger.find(id: open.id) }?.exit == nil, "the visit is still open")
            try expect(try await audit(ledger, AuditQuery()) == [earlier], "no entry appended, none purged")
            try expect(try await call("account") { () async throws(LedgerError) in try await accounts.account(named: "mallory") } == nil, "no account added")
            // The ledger goes on: the next transaction commits.
            let erased = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in try transaction.erase(.device(phone)) }
            }
            try expect(erased == 1, "a transaction after a failed one commits: \(erased)")
        },
        Case(description: "inside a transaction: admissions by capacity, occupancy, due purges, accounts, exits") { ledger async throws(ContractFailure) in
            let rules = AdmissionRules(duplicateSeconds: 3600, capacity: 1, openSince: at(-86_400))
            let (first, second, inside, due) = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in
                    let first = try transaction.record(scan(phone, at: -40 * 86_400), rules: AdmissionRules(duplicateSeconds: 60))
                    let second = try transaction.record(scan(other, at: 0), rules: rules)
                    let inside = try transaction.occupancy(venue: hall, openSince: at(-86_400))
                    let due = try transaction.purgeDue(PurgeRequest(checkInsBefore: at(-28 * 86_400), refusalsBefore: at(0)))
                    return (first, second, inside, due)
                }
            }
            guard case .admitted(.recorded(let old)) = first, case .admitted(.recorded) = second else {
                throw ContractFailure("both are admitted: \(first), \(second)", line: #line)
            }
            try expect(inside == 1, "one visit open since yesterday, counted inside the transaction: \(inside)")
            try expect(due == PurgeReport(checkIns: 1, refusals: 0), "the 40-day-old check-in is due: \(due)")
            let full = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in
                    try transaction.record(scan(DeviceID("device-c")!, at: 10), rules: AdmissionRules(duplicateSeconds: 3600, capacity: 1, openSince: at(-86_400)))
                }
            }
            try expect(full == .full(inside: 1), "the capacity holds inside a transaction: \(full)")
            let report = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in try transaction.checkOut(CheckOutRequest(.checkIn(old.id), at: at(20), kind: .staff)) }
            }
            try expect(report.closed == 1 && report.visit?.exit?.kind == .staff, "the exit is recorded: \(report)")
            let accounts: any AccountLedger = ledger
            let (added, again, changed, removed) = try await call("transaction") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in
                    let account = ConsoleAccount(name: "mina", role: .steward, passwordHash: "x", created: at(0))
                    return (try transaction.addAccount(account), try transaction.addAccount(account),
                            try transaction.changeAccount(named: "mina", AccountChange(role: .admin)), try transaction.removeAccount(named: "nobody"))
                }
            }
            try expect(added && !again && changed && !removed, "accounts change inside a transaction as outside: \(added) \(again) \(changed) \(removed)")
            try expect(try await call("account") { () async throws(LedgerError) in try await accounts.account(named: "mina") }?.role == .admin, "the change is committed")
        },
    ]
}
