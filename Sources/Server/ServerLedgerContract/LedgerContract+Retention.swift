import ServerDomain
import SharedDomain
import Synchronization

extension LedgerContract {
    /// Retention (issue 22): the daily purge deletes on time and nothing sooner, dry runs
    /// change nothing, kept counts add up exactly once.
    static let retentionCases: [Case] = [
        Case(description: "with the daily purge, check-ins 29 days old are gone while 27-day-old ones remain") { ledger async throws(ContractFailure) in
            let day: Int64 = 86_400
            let clock = ContractClock(at(0))
            let service = RetentionService(ledger: ledger, policy: .standard, clock: clock)
            let old = try await call("record") { () async throws(LedgerError) in
                try await ledger.record(scan(phone, at: -29 * day, visitor: Visitor(name: "Old", phone: "010-0000-0029")), duplicateSeconds: 3600)
            }.checkIn
            let young = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(other, at: -27 * day), duplicateSeconds: 3600) }.checkIn
            for age: Int64 in [8, 6] {
                try await call("recordRefusal") { () async throws(LedgerError) in
                    try await ledger.recordRefusal(Refusal(venue: hall, time: at(-age * day), reason: .expired, method: .qr))
                }
            }
            let first = await service.purgeNow()
            try expect((try? first.result.get()) == PurgeReport(checkIns: 1, refusals: 1),
                       "the purge at start deletes the 29-day-old check-in and the 8-day-old refusal, got \(first.result)")
            try expect(try await all(ledger) == [young], "only the 27-day-old check-in remains")
            try expect(try await call("find") { () async throws(LedgerError) in try await ledger.find(id: old.id) } == nil, "a purged check-in cannot be found")
            try expect(try await call("count") { () async throws(LedgerError) in try await ledger.count(CheckInQuery(device: phone)) } == 0,
                       "nothing of the purged device remains")
            try expect(try await erase(ledger, .phone("01000000029")) == 0,
                       "nothing of the purged visitor's phone remains")
            clock.advance(seconds: day)
            _ = await service.purgeNow()
            try expect(try await all(ledger) == [young], "28 days old (not older than the period) is kept")
            clock.advance(seconds: day)
            let third = await service.purgeNow()
            try expect((try? third.result.get())?.checkIns == 1, "a day later the check-in is 29 days old and goes: \(third.result)")
            try expect(try await all(ledger).isEmpty, "the log is empty")
            let again = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 2 * day), duplicateSeconds: 3600) }
            guard case .recorded = again else { throw ContractFailure("a purged device checks in afresh, got \(again)", line: #line) }
        },
        Case(description: "a dry run changes nothing, a purge keeping counts adds each deleted check-in once per venue and day") { ledger async throws(ContractFailure) in
            // Days of UTC+9: 15:00Z is already the next day there.
            for (seconds, venue) in [(0, hall), (3600, hall), (6 * 3600, hall), (6 * 3600 + 1, cafe), (20 * 3600, hall)] as [(Int64, VenueID)] {
                _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(nil, venue, at: seconds, method: .staff, operatorName: "x"), duplicateSeconds: 0) }
            }
            let offset = 9 * 3600
            var request = PurgeRequest(checkInsBefore: at(2 * 3600), refusalsBefore: at(0), keepsCounts: true, dayOffsetSeconds: offset, dryRun: true)
            let dry = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(request) }
            try expect(dry == PurgeReport(checkIns: 2, refusals: 0), "the dry run reports the two check-ins before the cutoff, got \(dry)")
            try expect(try await all(ledger).count == 5, "a dry run deletes nothing")
            try expect(try await call("keptCounts") { () async throws(LedgerError) in try await ledger.keptCounts(venue: nil) }.isEmpty, "a dry run keeps no counts")
            request.dryRun = false
            try expect(try await call("purge") { () async throws(LedgerError) in try await ledger.purge(request) } == dry, "the purge deletes what the dry run said")
            request.checkInsBefore = at(40 * 3600)
            try expect(try await call("purge") { () async throws(LedgerError) in try await ledger.purge(request) }.checkIns == 3, "the second purge deletes the rest")
            try expect(try await all(ledger).isEmpty, "nothing is left")
            let start = CalendarDay(containing: at(0), offsetSeconds: offset)  // 09:00Z is 18:00 there
            let next = CalendarDay(daysSince1970: start.daysSince1970 + 1)
            let kept = Set(try await call("keptCounts") { () async throws(LedgerError) in try await ledger.keptCounts(venue: nil) })
            try expect(kept == [DailyCount(venue: hall, day: start, count: 2), DailyCount(venue: hall, day: next, count: 2),
                                DailyCount(venue: cafe, day: next, count: 1)], "kept counts: \(kept)")
            let cafeOnly = try await call("keptCounts") { () async throws(LedgerError) in try await ledger.keptCounts(venue: cafe) }
            try expect(cafeOnly == [DailyCount(venue: cafe, day: next, count: 1)], "kept counts of one venue: \(cafeOnly)")
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(phone, at: 50 * 3600), duplicateSeconds: 0) }
            request.checkInsBefore = at(60 * 3600)
            request.keepsCounts = false
            _ = try await call("purge") { () async throws(LedgerError) in try await ledger.purge(request) }
            try expect(Set(try await call("keptCounts") { () async throws(LedgerError) in try await ledger.keptCounts(venue: nil) }) == kept,
                       "a purge that keeps no counts leaves the kept ones as they were")
        },
    ]
}

extension LedgerContract {
    /// Tallies count what queries select.
    static let tallyCases: [Case] = [
        Case(description: "a tally counts what its query selects, per venue and quarter hour") { ledger async throws(ContractFailure) in
            for (seconds, venue) in [(0, hall), (899, hall), (900, hall), (100, cafe), (7200, cafe)] as [(Int64, VenueID)] {
                _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(scan(nil, venue, at: seconds, method: .staff, operatorName: "x"), duplicateSeconds: 0) }
            }
            let quarter = CheckInTally.quarter(of: at(0))
            func shifted(_ seconds: Int64) -> WallTime { WallTime(milliseconds: quarter.milliseconds + seconds * 1000) }
            let all = Set(try await call("tally") { () async throws(LedgerError) in try await ledger.tally(CheckInQuery()) })
            try expect(all == [CheckInTally(venue: hall, quarter: quarter, count: 2), CheckInTally(venue: hall, quarter: shifted(900), count: 1),
                               CheckInTally(venue: cafe, quarter: quarter, count: 1), CheckInTally(venue: cafe, quarter: shifted(7200), count: 1)],
                       "tally of everything: \(all)")
            let bounded = Set(try await call("tally") { () async throws(LedgerError) in try await ledger.tally(CheckInQuery(venue: hall, from: at(1), limit: 1)) })
            try expect(bounded == [CheckInTally(venue: hall, quarter: quarter, count: 1), CheckInTally(venue: hall, quarter: shifted(900), count: 1)],
                       "a tally follows venue and from exactly (not whole quarters) and ignores limit: \(bounded)")
            try expect(try await call("tally") { () async throws(LedgerError) in try await ledger.tally(CheckInQuery(from: at(8000))) }.isEmpty, "an empty selection")
        },
    ]
}

/// A clock the retention cases move by hand.
final class ContractClock: WallClock {
    private let current: Mutex<WallTime>
    /// A clock standing at `time`.
    init(_ time: WallTime) { current = Mutex(time) }
    func now() -> WallTime { current.withLock { $0 } }
    /// Moves the clock by `seconds` (back when negative).
    func advance(seconds: Int64) { current.withLock { $0 = WallTime(milliseconds: $0.milliseconds + seconds * 1000) } }
}
