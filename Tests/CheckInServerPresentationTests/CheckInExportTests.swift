import CheckInDomain
import CheckInServerDomain
import CheckInServerPresentation
import Testing

/// The visitor log's formats.
struct CheckInExportTests {
    static let checkIn = CheckIn(id: 7, entry: NewCheckIn(
        venue: try! VenueID("HALL-1"), time: WallTime(milliseconds: 1_796_029_200_120), method: .safeNumber, windowAge: -1,
        device: DeviceID("abc"), visitor: Visitor(name: "Kim, \"MJ\"\n김", phone: "010-1234-5678"), operatorName: nil))

    @Test func csvQuotesWhatNeedsIt() {
        let export = CheckInExport(format: .csv, zone: SeoulZone())
        #expect(export.header == "id,venue,time,local_time,method,window_age,device,name,phone,operator\r\n")
        #expect(export.line(Self.checkIn)
                == "7,HALL-1,2026-11-30T09:00:00.120Z,2026-11-30T18:00:00+09:00,safe-number,-1,abc,\"Kim, \"\"MJ\"\"\n김\",01012345678,\r\n")
    }

    @Test func jsonLinesAreOneObjectALine() {
        let line = CheckInExport(format: .jsonl, zone: UTCTimeZone()).line(Self.checkIn)
        #expect(line.hasSuffix("}\n") && line.dropLast().contains("\n") == false)
        #expect(line.contains("\"method\":\"safe-number\"") && line.contains("\"operator\":null") && line.contains("\"window_age\":-1"))
    }
}
