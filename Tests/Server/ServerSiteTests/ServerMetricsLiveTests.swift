import ServerLedgerContract
import ServerDomain
import ServerLedgerTesting
import ServerSite
import SharedDomain
import Testing

/// /metrics reads the live counts from the ledger at each scrape, and counts the purges.
struct ServerMetricsLiveTests {
    @Test func gaugesMatchTheLedger() async throws {
        let ledger = InMemoryLedger()
        let now = WallTime(seconds: 1_796_029_200)
        let hall = try VenueID("HALL-1")
        for secondsAgo: Int64 in [5, 4000, 90_000] {
            _ = try await ledger.record(NewCheckIn(venue: hall, time: WallTime(seconds: now.seconds - secondsAgo), method: .qr, windowAge: 0, device: nil),
                                  duplicateSeconds: 0)
        }
        let metrics = ServerMetrics(startedAt: now, live: {
            try? await LiveCounts.read(from: ledger, at: now, dayStart: WallTime(seconds: now.seconds - 9 * 3600))
        })
        let text = await metrics.render()
        #expect(text.contains("qrcheckin_server_checkins_today{venue=\"HALL-1\"} 2\n"))
        #expect(text.contains("qrcheckin_server_checkins_last_hour{venue=\"HALL-1\"} 1\n"))
        #expect(text.contains("qrcheckin_server_checkins_stored 3\n"))
        #expect(text.contains("# TYPE qrcheckin_server_checkins_today gauge\n"))
        ledger.fail(with: LedgerError(.unavailable, "gone"))
        #expect(await !metrics.render().contains("checkins_today"), "no gauges rather than wrong ones when the ledger fails")
    }

    @Test func purgesAreCounted() async throws {
        let ledger = InMemoryLedger()
        let now = WallTime(seconds: 1_796_029_200)
        _ = try await ledger.record(NewCheckIn(venue: try VenueID("X"), time: WallTime(seconds: 0), method: .staff, windowAge: nil, device: nil),
                              duplicateSeconds: 0)
        let metrics = ServerMetrics(startedAt: now)
        struct Clock: WallClock { func now() -> WallTime { WallTime(seconds: 1_796_029_200) } }
        let service = RetentionService(ledger: ledger, policy: .standard, clock: Clock(), report: { metrics.countPurge($0) })
        _ = await service.purgeNow()
        ledger.fail(with: LedgerError(.busy, "locked"))
        _ = await service.purgeNow()
        let text = await metrics.render()
        #expect(text.contains("qrcheckin_server_purged_total{what=\"checkins\"} 1\n"))
        #expect(text.contains("qrcheckin_server_purge_failures_total 1\n"))
        #expect(text.contains("qrcheckin_server_last_purge_time_seconds 1796029200\n"))
    }
}
