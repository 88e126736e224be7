import ServerDomain
import ServerReports
import SharedDomain
import Testing

/// Quarter-hour tallies added up into local hours, days and venues, with kept daily counts.
struct CountReportTests {
    static let hall = try! VenueID("HALL-1")
    static let cafe = try! VenueID("CAFE")
    /// 2026-11-30T18:15:00Z.
    static let quarter = WallTime(milliseconds: 1_796_062_500_000)

    static func tally(_ venue: VenueID, quarters: Int64, _ count: Int) -> CheckInTally {
        CheckInTally(venue: venue, quarter: WallTime(milliseconds: quarter.milliseconds + quarters * CheckInTally.quarterMilliseconds), count: count)
    }

    @Test func hoursOfAHalfHourZoneAreItsOwn() {
        // India, UTC+05:30: 18:15Z is 23:45 there, 18:30Z is already the next day.
        var report = CountReport(keys: [.hour], zone: FixedZone(seconds: 5 * 3600 + 1800))
        for tally in [Self.tally(Self.hall, quarters: 0, 2), Self.tally(Self.cafe, quarters: 1, 3), Self.tally(Self.hall, quarters: 4, 1),
                      Self.tally(Self.hall, quarters: 5, 7)] {
            report.add(tally)
        }
        #expect(report.rows.map(\.cells) == [["2026-11-30T23:00+05:30"], ["2026-12-01T00:00+05:30"], ["2026-12-01T01:00+05:30"]])
        #expect(report.rows.map(\.count) == [2, 4, 7])
    }

    @Test func daysAndVenuesTogetherWithKeptCounts() {
        var report = CountReport(keys: [.venue, .day], zone: FixedZone(seconds: 9 * 3600))
        report.add(Self.tally(Self.hall, quarters: 0, 2))  // 2026-12-01 03:15 in UTC+9
        report.add(Self.tally(Self.hall, quarters: -40, 5))  // 2026-11-30 17:15
        report.add(Self.tally(Self.cafe, quarters: 0, 1))
        report.add(DailyCount(venue: Self.hall, day: CalendarDay(daysSince1970: 20_422), count: 10))  // 2025-11-30
        report.add(DailyCount(venue: Self.hall, day: CalendarDay(daysSince1970: 20_787), count: 1))   // 2026-11-30, added to the rows'
        #expect(report.text(.csv) == "venue,day,count\r\nCAFE,2026-12-01,1\r\nHALL-1,2025-11-30,10\r\nHALL-1,2026-11-30,6\r\nHALL-1,2026-12-01,2\r\n")
        #expect(report.text(.jsonl).split(separator: "\n").first == #"{"venue":"CAFE","day":"2026-12-01","count":1}"#)
        let table = report.text(.table).split(separator: "\n")
        #expect(table.first == "VENUE            DAY        COUNT")
        #expect(table.last == "total                       19")
    }

    @Test func calendarDaysKnowTheirDatesAndMidnights() {
        #expect(CalendarDay(daysSince1970: 0).description == "1970-01-01")
        #expect(CalendarDay(daysSince1970: 20_787).description == "2026-11-30")
        #expect(CalendarDay(daysSince1970: -1).description == "1969-12-31")
        #expect(CalendarDay(containing: WallTime(milliseconds: -1), offsetSeconds: 0).daysSince1970 == -1)
        let seoul = FixedZone(seconds: 9 * 3600)
        let day = CalendarDay(containing: Self.quarter, in: seoul)
        #expect(day.description == "2026-12-01")
        #expect(day.midnight(in: seoul) == WallTime(milliseconds: 1_796_050_800_000), "2026-11-30T15:00Z")
    }
}
