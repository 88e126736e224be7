import KioskCore
import KioskViews
import SharedDomain
import Testing

/// metrics.prom: what the counters say after each kind of event, and how often it is written.
@Suite struct DaemonCoreMetricsTests {
    /// The value of the sample line that starts with `series` (name and labels).
    func value(_ metrics: String?, _ series: String) -> String? {
        metrics?.split(separator: "\n").first { $0.hasPrefix(series + " ") }.map { String($0.dropFirst(series.count + 1)) }
    }

    @Test func countersMoveWithRefreshShakeRefusalsAndIgnoredShakes() {
        let shell = TestShell(seconds: 1_800_000_004)
        shell.start()
        #expect(value(shell.metrics, "qrcheckin_rotations_total{venue=\"DEMO\",cause=\"window\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_code_expiry_timestamp_seconds{venue=\"DEMO\"}") == "1800000015")
        #expect(value(shell.metrics, "qrcheckin_last_rotation_timestamp_seconds{venue=\"DEMO\"}") == "1800000004")
        #expect(value(shell.metrics, "qrcheckin_code_window{venue=\"DEMO\"}") == "120000000")
        #expect(value(shell.metrics, "qrcheckin_period_seconds{venue=\"DEMO\"}") == "15")
        #expect(value(shell.metrics, "qrcheckin_build_info{venue=\"DEMO\",version=\"unknown\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_state{venue=\"DEMO\",state=\"running\"}") == "1")

        shell.clock.advance(milliseconds: 1000)
        _ = shell.request("refresh now")
        #expect(value(shell.metrics, "qrcheckin_rotations_total{venue=\"DEMO\",cause=\"refresh-now\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_control_requests_total{venue=\"DEMO\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_code_sequence{venue=\"DEMO\"}") == "1")
        shell.clock.advance(milliseconds: 1000)
        shell.send(.signal(.user1))
        #expect(value(shell.metrics, "qrcheckin_rotations_total{venue=\"DEMO\",cause=\"shake\"}") == "1")

        // A refused peer changes nothing but a counter: metrics.prom alone is rewritten.
        shell.clock.advance(milliseconds: 1000)
        let refused = shell.send(.refused(count: 1, notice: "refused uid 1000"))
        #expect(TestShell.writes(refused).map(\.files) == [[.metrics]])
        #expect(value(shell.metrics, "qrcheckin_control_refusals_total{venue=\"DEMO\"}") == "1")

        shell.clock.advance(milliseconds: 1000)
        _ = shell.request("shake off")
        shell.clock.advance(milliseconds: 1000)
        shell.send(.signal(.user1))
        #expect(value(shell.metrics, "qrcheckin_ignored_shakes_total{venue=\"DEMO\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_shake_enabled{venue=\"DEMO\"}") == "0")
        #expect(value(shell.metrics, "qrcheckin_healthy{venue=\"DEMO\"}") == "1")
        #expect(value(shell.metrics, "qrcheckin_refresh_auto{venue=\"DEMO\"}") == "1")
    }

    @Test func aFloodOfRefusalsIsAtMostOneWriteASecond() {
        let shell = TestShell()
        shell.start()
        shell.clock.advance(milliseconds: 200)
        var effects: [DaemonEffect] = []
        for _ in 0..<500 { effects += shell.send(.refused(count: 1, notice: "refused")) }
        #expect(TestShell.writes(effects).isEmpty, "written 200 ms ago: not again within the second")
        #expect(TestShell.timers(effects) == [WallTime(seconds: 1_800_000_001)], "one timer for the write that is due")
        let tick = shell.tick(after: 800)
        #expect(TestShell.writes(tick).map(\.files) == [[.metrics]])
        #expect(value(shell.metrics, "qrcheckin_control_refusals_total{venue=\"DEMO\"}") == "500")
        #expect(TestShell.timers(tick) == [WallTime(seconds: 1_800_000_015)], "nothing pending: back to the boundary")
    }

    @Test func onlyMetricsIsWrittenWithoutAnFsync() {
        let shell = TestShell()
        shell.start()
        // The code's files must survive a power cut; metrics.prom is rewritten with every change.
        #expect(shell.disk.durable == ["current.png": true, "current.txt": true, "current.json": true, "metrics.prom": false])
    }

    @Test func theExpositionFormatHasHelpAndTypeBeforeEachMetricAndExactDecimals() {
        var counters = DaemonCounters()
        counters.rotations[.reload] = 2
        counters.lastRotation = WallTime(milliseconds: 1_800_000_004_250)
        let state = CheckInState(phase: .paused, settings: OperatorSettings(shake: .on, refresh: .paused), health: .degraded(reason: "x"),
                                 secondsLeft: 0, updatedAt: WallTime(seconds: 1_800_000_005),
                                 clock: ClockSync(synchronized: true, maxErrorMicroseconds: 1_500))
        let text = MetricsDocument(state: state, counters: counters, venue: "HALL-1", period: 30, version: "0.1.0").text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "# HELP qrcheckin_build_info Always 1; the version label names the running qrcheckin.")
        #expect(lines.contains("qrcheckin_rotations_total{venue=\"HALL-1\",cause=\"reload\"} 2"))
        #expect(lines.contains("qrcheckin_last_rotation_timestamp_seconds{venue=\"HALL-1\"} 1800000004.25"))
        #expect(lines.contains("qrcheckin_clock_max_error_seconds{venue=\"HALL-1\"} 0.0015"))
        #expect(lines.contains("qrcheckin_healthy{venue=\"HALL-1\"} 0"))
        #expect(lines.contains("qrcheckin_state{venue=\"HALL-1\",state=\"paused\"} 1"))
        #expect(!text.contains("qrcheckin_code_expiry"), "no code, no expiry")
        // Every sample's metric was introduced by its HELP and TYPE lines; counters end in _total.
        var typed: [String: String] = [:]
        for line in lines {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                typed[String(parts[2])] = String(parts[3])
            } else if !line.hasPrefix("#") {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                #expect(typed[name] != nil, "\(name) has no TYPE line")
                #expect((typed[name] == "counter") == name.hasSuffix("_total"))
            }
        }
    }
}
