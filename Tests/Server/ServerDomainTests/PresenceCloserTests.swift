import ServerDomain
import ServerLedgerTesting
import ServerLedgerContract
import SharedDomain
import Testing

/// Automatic ends of visits (issue 32) at a test clock: a night of `close-at` and `max-stay`
/// in milliseconds, never sleeping to 23:00.
struct PresenceCloserTests {
    static let hall = try! VenueID("HALL-1")
    static let cafe = try! VenueID("CAFE")
    /// Seoul: UTC+9, no daylight saving.
    static let seoul = 9 * 3600
    /// 2026-11-30 20:00 in Seoul.
    static let evening = Fixture.start + 2 * 3600

    static let venues = VenueDirectory(defaults: .standard, profiles: [
        hall: VenueProfile(displayName: nil, period: .standard, skew: 1, duplicateSeconds: 3600, visitorFields: [],
                           presence: VenuePresence(maxStaySeconds: 4 * 3600, closeAtMinute: 23 * 60)),
    ])

    static func at(_ seconds: Int64) -> WallTime { WallTime(seconds: evening + seconds) }

    static func enter(_ ledger: InMemoryLedger, _ device: String, _ venue: VenueID = hall, at seconds: Int64) async throws -> CheckIn {
        try await ledger.record(NewCheckIn(venue: venue, time: at(seconds), method: .qr, windowAge: 0, device: DeviceID(device)),
                          duplicateSeconds: 60).checkIn
    }

    static func visit(_ ledger: InMemoryLedger, _ id: Int64) async throws -> CheckIn { try await #require(try await ledger.find(id: id)) }

    @Test func closeAtEndsEveryoneAtTheClosingTimeAndMaxStayEachAtItsEntryPlusTheStay() async throws {
        let clock = TestClock(seconds: Self.evening)
        let ledger = InMemoryLedger()
        let closer = PresenceCloser(ledger: ledger, venues: Self.venues, clock: clock, zoneOffset: { _ in Self.seoul })
        let early = try await Self.enter(ledger, "a", at: 0)  // 20:00
        let late = try await Self.enter(ledger, "b", at: 5400)  // 21:30
        let coffee = try await Self.enter(ledger, "c", Self.cafe, at: 0)  // 20:00 at a venue of the defaults: 3 h
        #expect(closer.lastClosing(atMinute: 23 * 60, before: clock.now()) == Self.at(-21 * 3600), "the last 23:00 was yesterday's")

        #expect(try await closer.closeNow().result.get() == 0, "at 20:00 nobody's visit is over")
        clock.advance(seconds: 3 * 3600 - 60)  // 22:59
        #expect(try await closer.closeNow().result.get() == 0, "at 22:59 everyone is still inside")
        #expect(try await ledger.occupancy(venue: nil, openSince: nil) == [Self.hall: 2, Self.cafe: 1])

        clock.advance(seconds: 120)  // 23:01
        #expect(try await closer.closeNow().result.get() == 3)
        let closing = VisitExit(time: Self.at(3 * 3600), kind: .automatic)
        #expect(try await Self.visit(ledger, early.id).exit == closing, "close-at ends HALL-1's visits at 23:00, not at the pass's 23:01")
        #expect(try await Self.visit(ledger, late.id).exit == closing, "close-at ends HALL-1's visits at 23:00, not at the pass's 23:01")
        #expect(try await Self.visit(ledger, coffee.id).exit == VisitExit(time: Self.at(3 * 3600), kind: .automatic),
                "the cafe's ends at its entry plus its duplicate time (its max-stay)")
        #expect(try await closer.closeNow().result.get() == 0, "a pass is idempotent")

        // After closing, a visit at 23:30 is live until 03:30 (max-stay 4 h), then over, even
        // before a pass records it; the pass ends it at 03:30, not at the pass's time.
        let night = try await Self.enter(ledger, "d", at: 3 * 3600 + 1800)
        clock.advance(seconds: 4 * 3600 + 1800 - 120)  // 03:29
        let live = Self.venues.profile(for: Self.hall)!.openSince(at: clock.now())
        #expect(try await ledger.occupancy(venue: Self.hall, openSince: live) == [Self.hall: 1], "at 03:29 the night visit is live")
        clock.advance(seconds: 120)  // 03:31
        let over = Self.venues.profile(for: Self.hall)!.openSince(at: clock.now())
        #expect(try await ledger.occupancy(venue: Self.hall, openSince: over) == [:], "at 03:31 it has ended, pass or not")
        #expect(try await closer.closeNow().result.get() == 1)
        #expect(try await Self.visit(ledger, night.id).exit == VisitExit(time: Self.at(7 * 3600 + 1800), kind: .automatic))
        #expect(try await ledger.occupancy(venue: nil, openSince: nil).isEmpty)
    }

    @Test func aServerThatWasDownAtClosingTimeEndsThoseVisitsAtIt() async throws {
        let clock = TestClock(seconds: Self.evening + 6 * 3600)  // 02:00, the server just started
        let ledger = InMemoryLedger()
        let visit = try await Self.enter(ledger, "a", at: 2 * 3600)  // 22:00, recorded before it went down
        _ = try await PresenceCloser(ledger: ledger, venues: Self.venues, clock: clock, zoneOffset: { _ in Self.seoul }).closeNow()
        #expect(try await Self.visit(ledger, visit.id).exit == VisitExit(time: Self.at(3 * 3600), kind: .automatic))
    }
}
