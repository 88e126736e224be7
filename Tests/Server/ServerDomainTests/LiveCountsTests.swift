import ServerLedgerContract
import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Testing

/// Today, the last hour and per venue, as the ledger holds them.
struct LiveCountsTests {
    @Test func countsTodayTheLastHourAndEachVenue() async throws {
        let ledger = InMemoryLedger()
        let now = WallTime(seconds: Fixture.start)
        let midnight = WallTime(seconds: Fixture.start - 9 * 3600)
        let cafe = try await VenueID("CAFE")
        let staff = StaffCheckIn(ledger: ledger, clock: TestClock(seconds: 0))
        _ = try await staff.record(venue: Fixture.hall, visitor: nil, operatorName: "x")  // 1970: neither today nor the last hour
        for (secondsAgo, venue) in [(10, Fixture.hall), (3599, Fixture.hall), (3600, cafe), (3601, cafe), (9 * 3600 + 1, cafe)] as [(Int64, VenueID)] {
            _ = try await ledger.record(NewCheckIn(venue: venue, time: WallTime(seconds: Fixture.start - secondsAgo), method: .qr, windowAge: 0,
                                             device: nil), duplicateSeconds: 0)
        }
        let counts = try await LiveCounts.read(from: ledger, at: now, dayStart: midnight)
        #expect(counts.today == 4)
        #expect(counts.lastHour == 3, "an hour ago exactly is still the last hour")
        #expect(counts.total == 6)
        #expect(counts.venues.map(\.venue) == [cafe, Fixture.hall])
        #expect(counts.venues.map(\.today) == [2, 2])
        #expect(counts.venues.map(\.lastHour) == [1, 2])
    }

    @Test func aStaffCheckInKeepsItsOperatorAndIsNeverADuplicate() async throws {
        let ledger = InMemoryLedger()
        let staff = StaffCheckIn(ledger: ledger, clock: TestClock(seconds: Fixture.start))
        let visitor = Visitor(name: "Lee", phone: nil)
        let first = try await staff.record(venue: Fixture.hall, visitor: visitor, operatorName: "door")
        let second = try await staff.record(venue: Fixture.hall, visitor: visitor, operatorName: "door")
        #expect(first.id != second.id)
        #expect(first.method == .staff && first.entry.operatorName == "door" && first.entry.device == nil)
        #expect(first.time == WallTime(seconds: Fixture.start))
    }
}
