import ServerDomain
import SharedDomain
import Testing

/// A kiosk turning offline is told once, and once when it is back.
struct KioskOfflineWatchTests {
    @Test func offlineIsToldOnceAndBackOnce() throws {
        let a = KioskKey(venue: try VenueID("HALL-1"), name: try KioskName("a")), b = KioskKey(venue: try VenueID("HALL-1"), name: try KioskName("b"))
        var watch = OfflineWatch()
        #expect(watch.look([a: .ok, b: .late]) == ([], []))
        #expect(watch.look([a: .offline, b: .late]) == ([a], []))
        #expect(watch.look([a: .offline, b: .offline]) == ([b], []))
        #expect(watch.look([a: .offline, b: .offline]) == ([], []))
        #expect(watch.look([a: .ok]) == ([], [a]), "b forgotten: not told")
    }
}
