import KioskCore
import SharedText

/// `metrics.prom`: the daemon's state and counters in the Prometheus text exposition format
/// (version 0.0.4), for node_exporter's textfile collector or any scraper of the file.
///
/// Names follow Prometheus conventions: a `qrcheckin_` prefix, base units (`_seconds`,
/// Unix timestamps as `_timestamp_seconds`), `_total` on counters, one `venue` label on every
/// sample so several daemons can share one textfile directory. The file is written with each
/// state change and, for counter-only changes, at most once a second; a countdown would be
/// stale the moment it was written, so expiry is a timestamp (`… - time()` in PromQL).
/// docs/METRICS.md documents each metric.
public struct MetricsDocument: Sendable {
    /// The state the files beside it show.
    public var state: CheckInState
    /// The counters at the time of writing.
    public var counters: DaemonCounters
    /// The venue served.
    public var venue: String
    /// The rotation period in seconds.
    public var period: Int
    /// The daemon's version.
    public var version: String

    /// Creates the document.
    public init(state: CheckInState, counters: DaemonCounters, venue: String, period: Int, version: String) {
        self.state = state
        self.counters = counters
        self.venue = venue
        self.period = period
        self.version = version
    }

    /// The exposition text: `# HELP`, `# TYPE`, then the samples of each metric.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The exposition text as UTF-8, through the shared `PrometheusWriter`: names and help are
    /// literals, only the values vary. It goes out with every rotation, so no String is built
    /// per line or per value (docs/BENCHMARKS.md).
    public var bytes: [UInt8] {
        // The literals come to ~2.8 kB; the venue label appears once a sample (27 samples).
        var out = PrometheusWriter(capacity: 4096 + 32 * venue.utf8.count + version.utf8.count)
        let venue = PrometheusWriter.Label("venue", venue)
        /// A family of one sample, labelled with the venue only.
        func one(_ name: StaticString, _ type: PrometheusWriter.MetricType, _ help: StaticString, _ value: PrometheusWriter.Value) {
            out.family(name, type, help)
            out.sample(name, venue, value)
        }
        func flag(_ value: Bool) -> PrometheusWriter.Value { .integer(value ? 1 : 0) }

        out.family("qrcheckin_build_info", .gauge, "Always 1; the version label names the running qrcheckin.")
        out.sample("qrcheckin_build_info", venue, PrometheusWriter.Label("version", version), .integer(1))
        out.family("qrcheckin_rotations_total", .counter, "Codes issued since start, by cause (window, shake, refresh-now, reload).")
        for cause in RotationCause.allCases {
            out.sample("qrcheckin_rotations_total", venue, PrometheusWriter.Label("cause", cause.rawValue), .count(counters.rotations[cause] ?? 0))
        }
        one("qrcheckin_output_write_failures_total", .counter, "Attempts to put the outputs in place that failed (nothing was replaced).",
            .count(counters.writeFailures))
        one("qrcheckin_state_save_failures_total", .counter, "Saves of the settings and issue record that failed (codes pause until one succeeds).",
            .count(counters.saveFailures))
        one("qrcheckin_control_requests_total", .counter, "Control socket requests answered, including malformed ones.",
            .count(counters.requests))
        one("qrcheckin_control_refusals_total", .counter, "Peers the control socket turned away (not root, the daemon's user or the ops group).",
            .count(counters.refusals))
        one("qrcheckin_ignored_shakes_total", .counter, "Shakes ignored because shake mode is off.", .count(counters.ignoredShakes))
        one("qrcheckin_coalesced_shakes_total", .counter, "Shakes within a second of the last honoured one: answered with its code, nothing written.",
            .count(counters.coalescedShakes))
        one("qrcheckin_healthy", .gauge, "1 when the outputs are current, 0 when degraded (see current.json's reason).",
            flag(state.health == .ok))
        out.family("qrcheckin_state", .gauge, "1 for the daemon's current state, 0 for the others.")
        let current = Self.name(of: state.phase)
        for name in Self.states {
            out.sample("qrcheckin_state", venue, PrometheusWriter.Label("state", name), flag(name == current))
        }
        one("qrcheckin_shake_enabled", .gauge, "1 when shake mode is on.", flag(state.settings.shake == .on))
        one("qrcheckin_refresh_auto", .gauge, "1 when refresh mode is auto, 0 when an operator paused it.",
            flag(state.settings.refresh == .auto))
        one("qrcheckin_period_seconds", .gauge, "The rotation period.", .count(period))
        if let code = state.code {
            one("qrcheckin_code_expiry_timestamp_seconds", .gauge, "When the code on disk expires, in Unix seconds.", .integer(code.expiresAt))
            one("qrcheckin_code_window", .gauge, "The window counter of the code on disk (Unix time / period).", .integer(code.window))
            one("qrcheckin_code_sequence", .gauge, "The sequence number of the code on disk within its window.", .count(code.sequence))
        }
        if let last = counters.lastRotation {
            one("qrcheckin_last_rotation_timestamp_seconds", .gauge, "When the last code was issued, in Unix seconds.",
                .fixed(last.milliseconds, digits: 3))
        }
        if let synchronized = state.clock.synchronized {
            one("qrcheckin_clock_synchronized", .gauge, "1 when the kernel says the wall clock is synchronised (NTP), else 0.",
                flag(synchronized))
        }
        if let error = state.clock.maxErrorMicroseconds {
            one("qrcheckin_clock_max_error_seconds", .gauge, "The kernel's estimated maximum error of the wall clock.",
                .fixed(error, digits: 6))
        }
        one("qrcheckin_metrics_updated_timestamp_seconds", .gauge, "When this file was written, in Unix seconds.",
            .integer(state.updatedAt.seconds))
        return out.bytes
    }

    /// Every value of `qrcheckin_state`'s label.
    public static let states = ["running", "paused", "waiting", "stopped"]

    /// The state's name, as `current.json` writes it.
    static func name(of phase: CheckInState.Phase) -> String {
        switch phase {
        case .showing: "running"
        case .paused: "paused"
        case .waitingForClock: "waiting"
        case .stopped: "stopped"
        }
    }
}
