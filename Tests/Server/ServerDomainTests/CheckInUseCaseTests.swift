import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Testing

/// Verify → dedupe → record → receipt, at a test clock: an hour of scans in milliseconds.
struct CheckInUseCaseTests {
    @Test func aLiveCodeChecksInAndIsRecordedBeforeTheAnswer() async throws {
        let fixture = Fixture()
        let code = fixture.code(at: Fixture.start + 3)
        fixture.clock.advance(seconds: 5)
        let outcome = await fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(code.token), device: Fixture.device()))
        guard case .checkedIn(let checkIn) = outcome else { Issue.record("expected a check-in, got \(outcome)"); return }
        #expect(checkIn.venue == Fixture.hall)
        #expect(checkIn.method == .qr)
        #expect(checkIn.time == WallTime(seconds: Fixture.start + 5))
        #expect(checkIn.entry.windowAge == 0)
        #expect(try await fixture.ledger.find(id: checkIn.id) == checkIn)
    }

    @Test func theSameDeviceAgainIsAlreadyCheckedInAtTheFirstTime() async throws {
        let fixture = Fixture()
        let scan = Scan(venue: "HALL-1", code: .token(fixture.code(at: Fixture.start).token), device: Fixture.device())
        guard case .checkedIn(let first) = await fixture.useCase.checkIn(scan) else { Issue.record("first scan refused"); return }
        fixture.clock.advance(seconds: 20)  // the previous window's code, still within the skew
        let again = await fixture.useCase.checkIn(scan)
        #expect(again == .alreadyCheckedIn(first))
        #expect(try await fixture.ledger.count(CheckInQuery()) == 1)
        // After the duplicate time (three hours by default) a scan is a new visit.
        fixture.clock.advance(seconds: VenueProfile.standardDuplicateSeconds)
        let fresh = fixture.code(at: fixture.clock.now().seconds)
        let later = await fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(fresh.token), device: Fixture.device()))
        guard case .checkedIn(let second) = later else { Issue.record("a scan after the duplicate time: \(later)"); return }
        #expect(second.id != first.id)
    }

    @Test func aCodeTwoWindowsOldIsExpiredAndKeptAsARefusal() async {
        let fixture = Fixture()
        let old = fixture.code(at: Fixture.start)
        fixture.clock.advance(seconds: 30)  // window +2: beyond skew 1
        let outcome = await fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(old.token), device: Fixture.device()))
        #expect(outcome == .refused(.expired, venue: Fixture.hall))
        #expect(fixture.ledger.refusals() == [Refusal(venue: Fixture.hall, time: fixture.clock.now(), reason: .expired, method: .qr)])
        await #expect(try! fixture.ledger.count(CheckInQuery()) == 0)
    }

    @Test func aKioskAheadOfTheServerIsNotYetValid() async {
        let fixture = Fixture()
        let ahead = fixture.code(at: Fixture.start + 30)
        await #expect(fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(ahead.token), device: Fixture.device()))
                == .refused(.notYetValid, venue: Fixture.hall))
        // One window ahead is within the skew: windowAge −1.
        let slightly = fixture.code(at: Fixture.start + 15)
        guard case .checkedIn(let checkIn) = await fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(slightly.token), device: Fixture.device()))
        else { Issue.record("one window ahead must pass"); return }
        #expect(checkIn.entry.windowAge == -1)
    }

    @Test func refusalsNameTheirReason() async {
        let fixture = Fixture()
        let code = fixture.code(at: Fixture.start)
        let cafe = fixture.code(try! VenueID("CAFE"), at: Fixture.start)
        let cases: [(String, Scan.Code, RefusalReason)] = [
            ("hall-1", .token(code.token), .malformed),                   // not a venue id
            ("HALL-1", .token("1" + String(repeating: "A", count: 40)), .badMAC),
            ("HALL-1", .token(cafe.token), .badMAC),                      // another venue's token
            ("HALL-1", .token("2ABC"), .unknownVersion),
            ("HALL-1", .token("xyz"), .malformed),
            ("HALL-1", .safeNumber("12가34"), .malformed),
        ]
        for (venue, code, reason) in cases {
            let outcome = await fixture.useCase.checkIn(Scan(venue: venue, code: code, device: Fixture.device()))
            #expect(outcome == .refused(reason, venue: try? VenueID(venue)), "\(venue) \(code)")
        }
        #expect(fixture.ledger.refusals().map(\.reason) == cases.map(\.2))
    }

    @Test func aVenueNotServedIsUnknown() async {
        var fixture = Fixture()
        fixture.venues = VenueDirectory(profiles: [Fixture.hall: .standard], servesUnlisted: false)
        let cafe = try! VenueID("CAFE")
        let code = fixture.code(cafe, at: Fixture.start)
        await #expect(fixture.useCase.checkIn(Scan(venue: "CAFE", code: .token(code.token), device: Fixture.device()))
                == .refused(.unknownVenue, venue: cafe))
        // A server holding only HALL-1's venue key serves no other venue either.
        let key = VenueSigningKey(deriving: Fixture.secret, for: Fixture.hall, authenticator: fixture.authenticator)
        let keyed = CheckInUseCase(venues: VenueDirectory(), keys: [.venue(key)], authenticator: fixture.authenticator,
                                   ledger: fixture.ledger, clock: fixture.clock)
        await #expect(keyed.checkIn(Scan(venue: "CAFE", code: .token(code.token), device: Fixture.device())) == .refused(.unknownVenue, venue: cafe))
        let hall = fixture.code(at: Fixture.start)
        guard case .checkedIn = await keyed.checkIn(Scan(venue: "HALL-1", code: .token(hall.token), device: Fixture.device())) else {
            Issue.record("the venue key's own venue must check in"); return
        }
    }

    @Test func aTypedSafeNumberChecksInWithItsMethod() async {
        let fixture = Fixture()
        let code = fixture.code(at: Fixture.start)
        let outcome = await fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .safeNumber(code.safeNumber), device: Fixture.device()))
        guard case .checkedIn(let checkIn) = outcome else { Issue.record("safe number refused: \(outcome)"); return }
        #expect(checkIn.method == .safeNumber)
    }

    @Test func eachVenuesPeriodAndSkewApply() async {
        var fixture = Fixture()
        let slow = try! VenueID("SLOW")
        fixture.venues = VenueDirectory(profiles: [slow: VenueProfile(displayName: "Slow", period: try! RotationPeriod(seconds: 60), skew: 0,
                                                                      duplicateSeconds: 60, visitorFields: [])])
        let code = fixture.code(slow, at: Fixture.start, period: 60)
        fixture.clock.advance(seconds: 59)
        guard case .checkedIn = await fixture.useCase.checkIn(Scan(venue: "SLOW", code: .token(code.token), device: Fixture.device())) else {
            Issue.record("a 60 s code within its window must pass"); return
        }
        fixture.clock.advance(seconds: 2)  // next window, skew 0
        await #expect(fixture.useCase.checkIn(Scan(venue: "SLOW", code: .token(code.token), device: Fixture.device("phone-2")))
                == .refused(.expired, venue: slow))
    }

    @Test func visitorFieldsAreAskedForThenRecordedAtTheScansMoment() async throws {
        var fixture = Fixture()
        fixture.venues = VenueDirectory(defaults: VenueProfile(displayName: nil, period: .standard, skew: 1,
                                                               duplicateSeconds: 3600, visitorFields: [.name, .phone]))
        let code = fixture.code(at: Fixture.start)
        let scan = Scan(venue: "HALL-1", code: .token(code.token), device: Fixture.device())
        await #expect(fixture.useCase.checkIn(scan) == .needsVisitor(Fixture.hall, [.name, .phone], verifiedAt: fixture.clock.now()))
        let scannedAt = fixture.clock.now()
        fixture.clock.advance(seconds: 90)  // the visitor typed for a minute and a half
        let filled = Scan(venue: "HALL-1", code: .token(code.token), device: Fixture.device(),
                          visitor: Visitor(name: "김민지", phone: "010-1234-5678"))
        await #expect(fixture.useCase.checkIn(filled) == .refused(.expired, venue: Fixture.hall), "at now the code is old")
        guard case .checkedIn(let checkIn) = await fixture.useCase.checkIn(filled, verifiedAt: scannedAt) else {
            Issue.record("verified at the scan's moment it must pass"); return
        }
        #expect(checkIn.entry.visitor == Visitor(name: "김민지", phone: "01012345678"))
        #expect(checkIn.time == fixture.clock.now())
    }

    @Test func aFailingLedgerAcknowledgesNothing() async {
        let fixture = Fixture()
        fixture.ledger.fail(with: LedgerError(.unavailable, "connection refused"))
        let code = fixture.code(at: Fixture.start)
        await #expect(fixture.useCase.checkIn(Scan(venue: "HALL-1", code: .token(code.token), device: Fixture.device()))
                == .unavailable(LedgerError(.unavailable, "connection refused")))
    }

    @Test func staffCheckInsCarryTheOperator() async throws {
        let fixture = Fixture()
        let staff = StaffCheckIn(ledger: fixture.ledger, clock: fixture.clock)
        let checkIn = try await staff.record(venue: Fixture.hall, visitor: Visitor(name: "Park", phone: nil), operatorName: "alice")
        #expect(checkIn.method == .staff && checkIn.entry.operatorName == "alice" && checkIn.device == nil)
    }
}
