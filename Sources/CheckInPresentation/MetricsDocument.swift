import CheckInDomain

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

    /// The exposition text as UTF-8, built in one buffer: it is written with every rotation,
    /// so it costs appends, not a String per line (docs/BENCHMARKS.md).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        let venueLabel = Array("venue=\"\(Self.escape(venue))\"".utf8)
        func put(_ text: String) { out.append(contentsOf: text.utf8) }
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            put("# HELP "); put(name); out.append(0x20); put(help)
            put("\n# TYPE "); put(name); out.append(0x20); put(type); out.append(0x0A)
            for sample in samples {
                put(name); out.append(UInt8(ascii: "{")); out.append(contentsOf: venueLabel)
                if !sample.labels.isEmpty { out.append(UInt8(ascii: ",")); put(sample.labels) }
                put("} "); put(sample.value); out.append(0x0A)
            }
        }
        func one(_ name: String, _ type: String, _ help: String, _ value: String) { metric(name, type, help, [("", value)]) }
        func flag(_ value: Bool) -> String { value ? "1" : "0" }

        metric("qrcheckin_build_info", "gauge", "Always 1; the version label names the running qrcheckin.",
               [("version=\"\(Self.escape(version))\"", "1")])
        metric("qrcheckin_rotations_total", "counter", "Codes issued since start, by cause (window, shake, refresh-now, reload).",
               RotationCause.allCases.map { ("cause=\"\($0.rawValue)\"", String(counters.rotations[$0] ?? 0)) })
        one("qrcheckin_output_write_failures_total", "counter", "Attempts to put the outputs in place that failed (nothing was replaced).",
            String(counters.writeFailures))
        one("qrcheckin_control_requests_total", "counter", "Control socket requests answered, including malformed ones.",
            String(counters.requests))
        one("qrcheckin_control_refusals_total", "counter", "Peers the control socket turned away (not root, the daemon's user or the ops group).",
            String(counters.refusals))
        one("qrcheckin_ignored_shakes_total", "counter", "Shakes ignored because shake mode is off.", String(counters.ignoredShakes))
        one("qrcheckin_coalesced_shakes_total", "counter", "Shakes within a second of the last honoured one: answered with its code, nothing written.",
            String(counters.coalescedShakes))
        one("qrcheckin_healthy", "gauge", "1 when the outputs are current, 0 when degraded (see current.json's reason).",
            flag(state.health == .ok))
        metric("qrcheckin_state", "gauge", "1 for the daemon's current state, 0 for the others.",
               Self.states.map { ("state=\"\($0)\"", flag($0 == Self.name(of: state.phase))) })
        one("qrcheckin_shake_enabled", "gauge", "1 when shake mode is on.", flag(state.settings.shake == .on))
        one("qrcheckin_refresh_auto", "gauge", "1 when refresh mode is auto, 0 when an operator paused it.",
            flag(state.settings.refresh == .auto))
        one("qrcheckin_period_seconds", "gauge", "The rotation period.", String(period))
        if let code = state.code {
            one("qrcheckin_code_expiry_timestamp_seconds", "gauge", "When the code on disk expires, in Unix seconds.", String(code.expiresAt))
            one("qrcheckin_code_window", "gauge", "The window counter of the code on disk (Unix time / period).", String(code.window))
            one("qrcheckin_code_sequence", "gauge", "The sequence number of the code on disk within its window.", String(code.sequence))
        }
        if let last = counters.lastRotation {
            one("qrcheckin_last_rotation_timestamp_seconds", "gauge", "When the last code was issued, in Unix seconds.",
                Self.seconds(milliseconds: last.milliseconds))
        }
        if let synchronized = state.clock.synchronized {
            one("qrcheckin_clock_synchronized", "gauge", "1 when the kernel says the wall clock is synchronised (NTP), else 0.",
                flag(synchronized))
        }
        if let error = state.clock.maxErrorMicroseconds {
            one("qrcheckin_clock_max_error_seconds", "gauge", "The kernel's estimated maximum error of the wall clock.",
                Self.seconds(microseconds: error))
        }
        one("qrcheckin_metrics_updated_timestamp_seconds", "gauge", "When this file was written, in Unix seconds.",
            String(state.updatedAt.seconds))
        return out
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

    /// Label values escape backslash, double quote and newline (the format's only escapes).
    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Milliseconds as decimal seconds (`1800000000.25`), exact, no floating point.
    static func seconds(milliseconds: Int64) -> String { decimal(milliseconds, digits: 3) }

    /// Microseconds as decimal seconds (`0.016`), exact.
    static func seconds(microseconds: Int64) -> String { decimal(microseconds, digits: 6) }

    private static func decimal(_ value: Int64, digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / UInt64(scale)
        var fraction = String(magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
