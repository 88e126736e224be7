import SharedDomain
import Testing

/// The one reader of typed times: the CLI's `--at`/`--from`/`--until` (with a zone) and the
/// console's search (also without one, as `<input type="datetime-local">` sends it).
struct ISO8601DateTimeTests {
    @Test func withAZoneItNamesAMoment() {
        #expect(ISO8601DateTime("2030-01-01T00:00:00Z")?.unixSeconds == 1_893_456_000)
        #expect(ISO8601DateTime("2020-01-01T00:00Z")?.unixSeconds == 1_577_836_800)
        #expect(ISO8601DateTime("2026-11-30T18:00:00+09:00")?.unixSeconds == 1_796_029_200)
        #expect(ISO8601DateTime("2026-11-30 18:00:00.999+0900")?.unixSeconds == 1_796_029_200, "fraction dropped, zone without colon")
        #expect(ISO8601DateTime("2026-11-30t09:00-01")?.unixSeconds == 1_796_032_800)
    }

    @Test func withoutAZoneItIsALocalTimeAndNoMoment() throws {
        let local = try #require(ISO8601DateTime("2026-12-03T14:05"))
        #expect(local.offsetSeconds == nil && local.unixSeconds == nil)
        #expect(local.localSeconds == 1_796_306_700)
        #expect(ISO8601DateTime("2026-12-03T14:05:09.123")?.localSeconds == 1_796_306_709, "datetime-local with seconds and milliseconds")
    }

    @Test func everythingElseIsRefused() {
        for text in ["2030-01-01", "2030-01-01T", "2030-01-01T00", "2030-1-01T00:00", "2030-02-30T00:00", "2030-01-01T24:00",
                     "2030-01-01T00:60", "2030-01-01T00:00:61", "2030-01-01T00:00:00.", "2030-01-01T00:00+24:00", "2030-01-01T00:00Zx",
                     "12x", "", "now", "1700000000", "２０３０-01-01T00:00"] {
            #expect(ISO8601DateTime(text) == nil, "\(text)")
        }
    }
}
