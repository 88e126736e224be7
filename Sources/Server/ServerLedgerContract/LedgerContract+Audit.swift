import ServerDomain
import SharedDomain

extension LedgerContract {
    /// The audit log: append-only (inside transactions), newest first, paged by id, purged by its own retention.
    static let auditCases: [Case] = [
        Case(description: "the audit log lists what was appended, newest first, whole, and pages by id") { ledger async throws(ContractFailure) in
            let entries = (0..<5).map { index in
                AuditEntry(time: at(Int64(index)), actor: index == 0 ? "김민지" : "root", action: AuditAction.allCases[index],
                           subject: index == 1 ? nil : "check-in \(index)", detail: index == 2 ? "venue=HALL-1 format=csv" : nil,
                           rows: index == 3 ? nil : index * 10, source: index == 4 ? nil : "console 203.0.113.5")
            }
            var appended: [AuditEntry] = []
            for entry in entries {
                appended.append(try await append(ledger, entry))
            }
            try expect(appended.allSatisfy { $0.id != nil } && Set(appended.map(\.id)).count == 5, "every entry gets its own id")
            try expect(zip(appended, entries).allSatisfy { AuditEntry(time: $0.time, actor: $0.actor, action: $0.action, subject: $0.subject,
                                                                      detail: $0.detail, rows: $0.rows, source: $0.source) == $1 },
                       "appendAudit returns what was given, with its id")
            let listed = try await audit(ledger, AuditQuery())
            try expect(listed == appended.reversed(), "the log lists every entry newest first, whole: \(listed)")
            let firstPage = try await audit(ledger, AuditQuery(limit: 2))
            let secondPage = try await audit(ledger, AuditQuery(before: firstPage.last!.id, limit: 2))
            try expect(firstPage + secondPage == Array(appended.reversed().prefix(4)), "pages follow each other by id")
            try expect(try await audit(ledger, AuditQuery(from: at(1), until: at(3))) == [appended[2], appended[1]], "from and until bound the time")
        },
        Case(description: "the audit log's purge deletes entries before the cutoff only") { ledger async throws(ContractFailure) in
            for day: Int64 in [-400, -366, -364, 0] {
                _ = try await append(ledger, AuditEntry(time: at(day * 86_400), actor: "root", action: .export, rows: 1))
            }
            let purged = try await call("purgeAudit") { () async throws(LedgerError) in
                try await ledger.transaction { transaction throws(LedgerError) in try transaction.purgeAudit(before: at(-365 * 86_400)) }
            }
            try expect(purged == 2, "two entries older than a year are purged, got \(purged)")
            try expect(try await audit(ledger, AuditQuery()).map(\.time) == [at(0), at(-364 * 86_400)], "the younger ones remain")
        },
    ]

    /// Every entry `query` selects, read in pages of two (the pages must follow each other).
    static func audit(_ ledger: any Ledger, _ query: AuditQuery) async throws(ContractFailure) -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await call("audit") { () async throws(LedgerError) in
            try await ledger.eachEntry(query, pageSize: 2) { entry throws(LedgerError) in
                entries.append(entry)
                return true
            }
        }
        return entries
    }
}
