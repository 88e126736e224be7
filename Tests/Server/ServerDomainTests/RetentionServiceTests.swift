import ServerLedgerContract
import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Synchronization
import Testing

/// The retention service at a test clock: a month of daily purges in milliseconds.
struct RetentionServiceTests {
    static let day: Int64 = 86_400
    static let hall = try! VenueID("HALL-1")

    /// Sleeps that move `clock` instead of waiting, recorded; the `stopAfter`-th throws
    /// CancellationError, which ends `run` the way a cancelled task does.
    final class Sleeper: Sendable {
        let clock: TestClock
        let stopAfter: Int
        private let naps = Mutex<[Int64]>([])
        init(_ clock: TestClock, stopAfter: Int) {
            self.clock = clock
            self.stopAfter = stopAfter
        }
        var seconds: [Int64] { naps.withLock { $0 } }
        func sleep(_ duration: Duration) throws {
            let count = naps.withLock { naps in
                naps.append(duration.components.seconds)
                return naps.count
            }
            if count >= stopAfter { throw CancellationError() }
            clock.advance(seconds: duration.components.seconds)
        }
    }

    static func record(_ ledger: InMemoryLedger, daysAgo: Int64, from now: WallTime, device: String) async throws {
        let time = WallTime(milliseconds: now.milliseconds - daysAgo * day * 1000)
        _ = try await ledger.record(NewCheckIn(venue: hall, time: time, method: .qr, windowAge: 0, device: DeviceID(device)),
                              duplicateSeconds: 0)
    }

    @Test func itPurgesAtStartAndDailySo29DaysAreGoneAnd27Remain() async throws {
        let clock = TestClock(seconds: Fixture.start)
        let ledger = InMemoryLedger()
        try await Self.record(ledger, daysAgo: 29, from: clock.now(), device: "old")
        try await Self.record(ledger, daysAgo: 27, from: clock.now(), device: "young")
        let purges = Mutex<[RetentionService.Purge]>([])
        let service = RetentionService(ledger: ledger, policy: .standard, clock: clock, napSeconds: 3600,
                                       report: { purge in purges.withLock { $0.append(purge) } })
        // 24 naps of an hour each is a day: stop during the third day.
        let sleeper = Sleeper(clock, stopAfter: 24 * 2 + 5)
        await #expect(throws: CancellationError.self) { try await service.run(sleep: { try await sleeper.sleep($0) }) }
        let runs = purges.withLock { $0 }
        #expect(runs.map { ($0.at.seconds - Fixture.start) / 3600 } == [0, 24, 48], "at start, then every 24 hours")
        #expect(runs.map { try? $0.result.get().checkIns } == [1, 0, 1])
        // At start the 29-day-old check-in went and the 27-day-old one stayed; two days later
        // that one was 29 days old too.
        #expect(try await ledger.count(CheckInQuery()) == 0)
        #expect(sleeper.seconds.allSatisfy { $0 <= 3600 }, "never sleeps more than a nap")
        #expect(runs.allSatisfy { $0.request.keepsCounts }, "the standard policy keeps daily counts")
        #expect(try await ledger.keptCounts(venue: nil).map(\.count).reduce(0, +) == 2)
    }

    @Test func aFailedPurgeIsTriedAgainWithinTheHour() async throws {
        let clock = TestClock(seconds: Fixture.start)
        let ledger = InMemoryLedger()
        ledger.fail(with: LedgerError(.busy, "locked"))
        let results = Mutex<[Bool]>([])
        let service = RetentionService(ledger: ledger, policy: .standard, clock: clock, napSeconds: 600,
                                       report: { purge in results.withLock { $0.append((try? purge.result.get()) != nil) } })
        let sleeper = Sleeper(clock, stopAfter: 7)
        let states = Mutex<[RetentionService.State]>([])
        await #expect(throws: CancellationError.self) {
            try await service.run(sleep: { duration in
                states.withLock { $0.append(service.current) }
                try await sleeper.sleep(duration)
                if clock.now().seconds - Fixture.start >= 3600 { ledger.fail(with: nil) }
            })
        }
        #expect(results.withLock { $0 } == [false, true], "failed at start, succeeded an hour later")
        #expect(sleeper.seconds == [600, 600, 600, 600, 600, 600, 600])
        let waits = states.withLock { $0 }.compactMap { state -> Int64? in
            if case .waiting(let until) = state { return until.seconds - Fixture.start } else { return nil }
        }
        #expect(waits == [3600, 3600, 3600, 3600, 3600, 3600, 3600 + Self.day], "an hour after the failure, a day after the success")
        #expect(service.lastPurge?.at.seconds == Fixture.start + 3600)
    }

    @Test func aClockSetBackDelaysThePurgeByADayAtMost() async throws {
        let clock = TestClock(seconds: Fixture.start)
        let count = Mutex(0)
        let service = RetentionService(ledger: InMemoryLedger(), policy: .standard, clock: clock, napSeconds: 3600,
                                       report: { _ in count.withLock { $0 += 1 } })
        let naps = Mutex(0)
        await #expect(throws: CancellationError.self) {
            try await service.run(sleep: { duration in
                let nap = naps.withLock { $0 += 1; return $0 }
                if nap == 1 { clock.advance(seconds: -30 * Self.day) }  // someone set the clock a month back
                else { clock.advance(seconds: duration.components.seconds) }
                if nap > 26 { throw CancellationError() }
            })
        }
        #expect(count.withLock { $0 } == 2, "purged at start and again a day after the clock went back")
    }

    @Test func purgeNowUsesTheClocksNowAndTheZoneForKeptDays() async throws {
        let clock = TestClock(seconds: Fixture.start)
        let ledger = InMemoryLedger()
        try await Self.record(ledger, daysAgo: 30, from: clock.now(), device: "a")
        let service = RetentionService(ledger: ledger, policy: RetentionPolicy(checkInSeconds: 86_400, refusalSeconds: 3600, keepsDailyCounts: true),
                                       clock: clock, dayOffset: { _ in 9 * 3600 })
        let purge = await service.purgeNow()
        #expect(purge.request.checkInsBefore == WallTime(seconds: Fixture.start - 86_400))
        #expect(purge.request.refusalsBefore == WallTime(seconds: Fixture.start - 3600))
        #expect(purge.request.dayOffsetSeconds == 9 * 3600)
        // 2026-10-31T09:00Z is 18:00 of 2026-10-31 in UTC+9.
        #expect(try await ledger.keptCounts(venue: nil).map(\.day.description) == ["2026-10-31"])
        #expect(service.lastPurge?.at == clock.now())
    }
}
