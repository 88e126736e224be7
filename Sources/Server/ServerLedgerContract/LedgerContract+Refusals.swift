import ServerDomain
import SharedDomain

extension LedgerContract {
    /// Refused scans: kept (at once, or later without waiting) and counted per venue and reason.
    static let refusalCases: [Case] = [
        Case(description: "refusals are counted per venue and reason since a moment; one kept later is counted once it is in") { ledger async throws(ContractFailure) in
            for (seconds, venue, reason) in [(0, hall, RefusalReason.expired), (10, hall, .expired), (20, hall, .badMAC), (30, cafe, .expired),
                                             (40, nil, .malformed), (-50, hall, .expired)] as [(Int64, VenueID?, RefusalReason)] {
                try await call("recordRefusal") { () async throws(LedgerError) in
                    try await ledger.recordRefusal(Refusal(venue: venue, time: at(seconds), reason: reason, method: .qr))
                }
            }
            func counts(since seconds: Int64) async throws(ContractFailure) -> Set<RefusalCount> {
                Set(try await call("refusalCounts") { () async throws(LedgerError) in try await ledger.refusalCounts(since: at(seconds)) })
            }
            try expect(try await counts(since: 0) == [RefusalCount(venue: hall, reason: .expired, count: 2), RefusalCount(venue: hall, reason: .badMAC, count: 1),
                                                      RefusalCount(venue: cafe, reason: .expired, count: 1), RefusalCount(venue: nil, reason: .malformed, count: 1)],
                       "per venue and reason, the one before `since` left out")
            try expect(try await counts(since: 35) == [RefusalCount(venue: nil, reason: .malformed, count: 1)], "a later `since` counts less")
            ledger.recordRefusalLater(Refusal(venue: cafe, time: at(60), reason: .full, method: .safeNumber))
            // Nothing waits for it: it is in once the engine's queue has run, soon.
            var later: Set<RefusalCount> = []
            for _ in 0..<2000 {
                later = try await counts(since: 50)
                if !later.isEmpty { break }
                try? await Task.sleep(for: .milliseconds(5))
            }
            try expect(later == [RefusalCount(venue: cafe, reason: .full, count: 1)], "a refusal kept later is counted once: \(later)")
        },
    ]
}
