import KioskAdapters
import SharedDomain
import SharedSystem
import Testing

@Suite struct LogRateLimiterTests {
    @Test func aFloodCostsOneLinePerIntervalAndEveryEventIsCounted() {
        var limiter = LogRateLimiter(intervalMilliseconds: 5000)
        var lines = 0, accounted = 0
        // 20,000 events in 1.6 s, as the adversarial run produced.
        for i in 0..<20_000 {
            if let earlier = limiter.admit(now: WallTime(milliseconds: Int64(i) * 1600 / 20_000)) {
                lines += 1
                accounted += 1 + earlier
            }
        }
        #expect(lines == 1)
        #expect(limiter.summaryDue == WallTime(milliseconds: 5000))
        #expect(limiter.summary(now: WallTime(milliseconds: 4999)) == nil)
        let summary = limiter.summary(now: WallTime(milliseconds: 5000))
        #expect(summary == 19_999)
        accounted += summary ?? 0
        #expect(accounted == 20_000)
        #expect(limiter.summaryDue == nil, "nothing left to report")
    }

    @Test func theFirstEventAfterAQuietIntervalIsLoggedWithTheCountBeforeIt() {
        var limiter = LogRateLimiter(intervalMilliseconds: 1000)
        #expect(limiter.admit(now: WallTime(milliseconds: 0)) == 0)
        #expect(limiter.admit(now: WallTime(milliseconds: 10)) == nil)
        #expect(limiter.admit(now: WallTime(milliseconds: 20)) == nil)
        #expect(limiter.admit(now: WallTime(milliseconds: 1020)) == 2)
        #expect(limiter.admit(now: WallTime(milliseconds: 5000)) == 0)
    }

    @Test func refusalNoticesSayWhoAndHowManyMore() {
        let peer = PeerCredentials(pid: 42, uid: 1000, gid: 1000, groups: [])
        #expect(RefusalNotice(peer: peer, suppressed: 0, intervalSeconds: 5).description
            == "refused uid 1000 (pid 42): not root, the daemon's user, or in its ops group")
        #expect(RefusalNotice(peer: nil, suppressed: 19_999, intervalSeconds: 5).description
            == "19999 more peers were refused (not root, the daemon's user, or in its ops group) and not logged one by one (at most one line per 5 s)")
        #expect(RefusalNotice(peer: peer, suppressed: 1, intervalSeconds: 5).description.hasSuffix("; before it, 1 more peer was refused (not root, the daemon's user, or in its ops group) and not logged one by one (at most one line per 5 s)"))
    }
}
