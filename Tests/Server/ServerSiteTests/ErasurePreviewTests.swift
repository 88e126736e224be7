import ServerDomain
import ServerReports
import SharedDomain
import Testing

/// What `erase` shows before it asks: counts per local day and venue, and never a device id or
/// a phone number whole.
struct ErasurePreviewTests {
    static let device = DeviceID("0193f2a1c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5")!
    /// 2026-11-30T14:30:00Z: 23:30 in Seoul, the last half hour of that day.
    static let evening = WallTime(seconds: 1_796_049_000)

    static func checkIn(_ venue: String, _ time: WallTime, id: Int64 = 7) async -> CheckIn {
        CheckIn(id: id, entry: NewCheckIn(venue: try! VenueID(venue), time: time, method: .qr, windowAge: 0, device: device,
                                          visitor: Visitor(name: "Kim", phone: "010-1234-5678")))
    }

    @Test func aDevicesCheckInsPerLocalDayAndVenue() async {
        let later = WallTime(seconds: Self.evening.seconds + 3600)  // 00:30 the next day in Seoul
        let rows = [await Self.checkIn("HALL-1", Self.evening), await Self.checkIn("CAFE", Self.evening), await Self.checkIn("HALL-1", later),
                    await Self.checkIn("HALL-1", Self.evening)]
        let preview = ErasurePreview(scope: .device(Self.device, ofCheckIn: 93_812_746_501_234), checkIns: rows, zone: FixedZone(seconds: 9 * 3600))
        #expect(preview.count == 4)
        #expect(preview.text == """
            4 check-ins of the device of check-in 93812746501234 (0193f2a1c4d5e6f7…):
              2026-11-30  CAFE    1
              2026-11-30  HALL-1  2
              2026-12-01  HALL-1  1

            """)
        #expect(preview.question == "Erase these 4 check-ins? [y/N] ")
        #expect(preview.erased(4) == "erased 4 check-ins of that device")
        let utc = ErasurePreview(scope: .device(Self.device, ofCheckIn: nil), checkIns: rows, zone: FixedZone(seconds: 0))
        #expect(utc.text.hasPrefix("4 check-ins of device 0193f2a1c4d5e6f7…:\n  2026-11-30  CAFE    1\n  2026-11-30  HALL-1  3\n"))
        #expect(!preview.text.contains(Self.device.rawValue) && !utc.text.contains(Self.device.rawValue))
    }

    @Test func aPhoneNumberShowsItsLastFourDigitsOnly() async {
        let preview = ErasurePreview(scope: .phone("01012345678", ofCheckIn: nil), checkIns: [await Self.checkIn("CAFE", Self.evening)],
                                     zone: FixedZone(seconds: 0))
        #expect(preview.text == "1 check-in with the phone number …5678:\n  2026-11-30  CAFE  1\n")
        #expect(preview.question == "Erase this check-in? [y/N] ")
        #expect(preview.erased(1) == "erased 1 check-in with that phone number")
        let none = ErasurePreview(scope: .phone("01012345678", ofCheckIn: 12), checkIns: [], zone: FixedZone(seconds: 0))
        #expect(none.count == 0 && none.nothing == "no check-ins with the phone number of check-in 12 (…5678)")
    }

    @Test func oneCheckInAloneSaysWhy() async {
        let staff = ErasurePreview(scope: .checkIn(42, namesNoVisitor: true), checkIns: [await Self.checkIn("HALL-1", Self.evening, id: 42)],
                                   zone: FixedZone(seconds: 0))
        #expect(staff.text.hasPrefix("check-in 42, which names no device and no phone number"))
        #expect(staff.erased(1) == "erased 1 check-in")
        let only = ErasurePreview(scope: .checkIn(42, namesNoVisitor: false), checkIns: [await Self.checkIn("HALL-1", Self.evening, id: 42)],
                                  zone: FixedZone(seconds: 0))
        #expect(only.text == "check-in 42 alone:\n  2026-11-30  HALL-1  1\n")
    }

    @Test func aShortDeviceIDIsNeverShownWhole() {
        let short = DeviceID("device-a")!
        let preview = ErasurePreview(scope: .device(short, ofCheckIn: nil), checkIns: [], zone: FixedZone(seconds: 0))
        #expect(preview.nothing == "no check-ins of device devi…")
    }
}
